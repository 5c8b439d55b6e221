# syntax=docker/dockerfile:1
# Build: a static binary with version information.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# make docker passes all three (git describe, git rev-parse, the last commit's UTC time).
ARG VERSION=dev
ARG COMMIT=unknown
ARG DATE=unknown
# As make build: the simulator's generated executor (a tool) is compiled without inlining.
RUN CGO_ENABLED=0 go build -trimpath \
      -gcflags=github.com/v2bridge/v2bridge/sim/internal/exec=-l \
      -ldflags "-s -w -X main.version=${VERSION} -X main.commit=${COMMIT} -X main.date=${DATE}" \
      -o /out/v2bridge ./cmd/v2bridge

# Run: distroless static, non-root, read-only friendly.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/v2bridge /v2bridge
COPY configs/v2bridge.yaml /etc/v2bridge/v2bridge.yaml
USER nonroot:nonroot
EXPOSE 8080
ENTRYPOINT ["/v2bridge"]
CMD ["serve", "--config", "/etc/v2bridge/v2bridge.yaml"]
