# v2bridge — the README's two commands are `make run` and `make test`.
GO        ?= go
PKG       := github.com/v2bridge/v2bridge
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT    ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
# The last commit's time, not the clock's: the same tree links to the same binary, so a
# warm `make run` does not relink.
DATE      ?= $(shell TZ=UTC git log -1 --format=%cd --date=format-local:%Y-%m-%dT%H:%M:%SZ 2>/dev/null || echo unknown)
LDFLAGS   := -s -w -X main.version=$(VERSION) -X main.commit=$(COMMIT) -X main.date=$(DATE)
LISTEN    ?= 127.0.0.1:8080
# ARGS: more demo flags, e.g. make run ARGS='--routes applications.list=compare'
ARGS      ?=
# The NerdGraph simulator's generated executor (a tool: the demo's upstream, never the
# gateway's path) is compiled without inlining: it is the largest package of the first
# build and its speed does not matter.
GCFLAGS   := -gcflags=$(PKG)/sim/internal/exec=-l

.PHONY: run test fmt-check vet generate check-generated build bench docker conformance fuzz soak mutate

## run: the demo — gateway + NerdGraph simulator with demo data on $(LISTEN), with $(ARGS). Built, then
## exec'd: the demo handles Ctrl-C itself, stops cleanly and make reports no error.
run:
	@if [ -x bin/v2bridge ]; then echo "make run: building bin/v2bridge (seconds when little changed)"; \
	else echo "make run: building bin/v2bridge; the first build compiles every dependency, about 90 s and 1.3 GB of memory on 2 idle cores (several minutes on a busy machine)"; fi
	@$(MAKE) --no-print-directory build
	@echo "make run: starting the demo on $(LISTEN) (Ctrl-C stops it)"
	@exec bin/v2bridge demo --listen $(LISTEN) $(ARGS)

## test: gofmt check, go vet, every test with the race detector, and the conformance summary
test: fmt-check vet
	$(GO) test -race -count=1 -timeout 20m ./...
	@$(MAKE) --no-print-directory conformance

## conformance: real clients, documented requests and REST v2 shapes, summarised on one screen,
## then the specification walk (tests/spec/SPEC.md): every test the matrix names, and the rows by status
conformance:
	@$(GO) test -count=1 -v ./tests/clientcompat ./tests/docrequests ./tests/shapes 2>&1 | awk '\
		/^ *--- PASS/ { pass++ } /^ *--- FAIL/ { fail++; failed = failed "\n    " $$3 } \
		/^(ok|FAIL|---)[ \t]+github.com/ || /^(ok|FAIL)\t/ { \
			n = split($$2, parts, "/"); name = parts[n]; \
			label["clientcompat"] = "newrelic-client-go methods"; label["docrequests"] = "documented requests"; label["shapes"] = "REST v2 shapes and XML mirrors"; \
			printf "conformance: %-32s %3d passed, %d failed\n", label[name], pass, fail; total += fail; pass = 0; fail = 0 } \
		END { if (failed != "") print "  failing:" failed; exit total > 0 }'
	@out=$$(SPEC_WALK=1 GO=$(GO) $(GO) test -count=1 -run '^TestWalk$$' -v ./tests/spec 2>&1); status=$$?; \
		echo "$$out" | grep '^conformance:'; \
		if [ $$status -ne 0 ]; then echo "$$out" | grep -v '^conformance:'; exit 1; fi

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

## generate: regenerate genqlient operations and the gqlgen simulator executor
generate:
	$(GO) generate ./...

## check-generated: fail when checked-in generated code is stale
check-generated: generate
	@git diff --exit-code --stat || (echo "generated code is stale: run 'make generate' and commit"; exit 1)
	@untracked=$$(git status --porcelain --untracked-files=all | grep '^??' || true); \
	if [ -n "$$untracked" ]; then echo "generate produced untracked files:"; echo "$$untracked"; exit 1; fi

## build: bin/v2bridge with version, commit and the commit's date
build:
	CGO_ENABLED=0 $(GO) build -trimpath $(GCFLAGS) -ldflags '$(LDFLAGS)' -o bin/v2bridge ./cmd/v2bridge

## bench: Go micro-benchmarks of the hot paths, then the side-by-side load harness
## (gateway vs plain net/http vs ReverseProxy over a canned NerdGraph; BENCH_FLAGS="-c 50 -d 10s"),
## then the journeys: scripts' round trips and wall time at 150 ms a round trip (BENCH_FLAGS=-journeys-only: them alone)
BENCH_FLAGS ?=
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...
	$(GO) run ./tests/bench $(BENCH_FLAGS)

## fuzz: run every fuzz target for FUZZTIME each (their seed corpora also run in make test)
FUZZTIME ?= 1m
FUZZ_TARGETS := ./translate:FuzzParseGUID ./translate:FuzzQuoteSearch ./restv2:FuzzParseParams \
	./restv2:FuzzParseTime ./restv2:FuzzStrings ./sim/nrdb:FuzzParse \
	./translate:FuzzNRQLQuote ./gateway:FuzzWriteBodies ./gateway:FuzzRoutes
fuzz:
	@for t in $(FUZZ_TARGETS); do pkg=$${t%%:*}; fn=$${t##*:}; echo "== $$fn ($$pkg)"; \
		$(GO) test -run '^$$' -fuzz "^$$fn$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; done

## soak: the gateway against the simulator with faults switched on and off for SOAKTIME,
## reporting answers by class, latency, and goroutines/memory at rest before and after
SOAKTIME ?= 3m
soak:
	$(GO) run ./tests/soak -d $(SOAKTIME)

## docker: the container image v2bridge:$(VERSION), also tagged v2bridge:$(IMAGE_TAG) (the
## pinned image configs/k8s/base/deployment.yaml names), built with version, commit and the commit's date
IMAGE_TAG ?= 0.1.0
docker:
	docker build --build-arg VERSION=$(VERSION) --build-arg COMMIT=$(COMMIT) --build-arg DATE=$(DATE) \
		-t v2bridge:$(VERSION) -t v2bridge:$(IMAGE_TAG) .

## mutate: mutation testing of one product package tree with each package's own tests (not the
## e2e suite), using gremlins pinned below (fetched by `go run`, so only Go is needed):
##   make mutate PKG=./graphql/...            # the package and its sub-packages
##   make mutate PKG=./gateway FILES='passthrough|compare|report'   # only files matching FILES
## Generated code (generated.go, *_gen.go) and sim are never mutated. Prints the surviving
## mutants as path:line:col, then the score (efficacy = killed / (killed + lived)) and the share of
## mutants any own-package test reaches. MUTATE_FLAGS=--invert-logical adds one of gremlins'
## opt-in mutators. Waived equivalent mutants: docs/testing.md.
## Coverage only (no tests run, every mutant listed): MUTATE_FLAGS='--dry-run -S rc'.
## Each mutant is tested without go vet (-vet=off); its time limit is MUTATE_TIMEOUT × the
## package's uncached test time (-count=1, so a cached coverage run cannot shrink it to
## seconds and count slow compiles as kills).
GREMLINS_VERSION ?= v0.6.0
MUTATE_WORKERS   ?= 1
MUTATE_TIMEOUT   ?= 20
FILES            ?=
MUTATE_FLAGS     ?=
mutate:
	@case '$(PKG)' in ./*|.) ;; *) echo "usage: make mutate PKG=./graphql/... [FILES=regexp] (a directory of this module)"; exit 2;; esac
	@dir=$$(echo '$(PKG)' | sed -e 's|/\.\.\.$$||' -e 's|^\./||' -e 's|/$$||'); [ -n "$$dir" ] || dir=.; \
	test -d "$$dir" || { echo "mutate: no directory $$dir"; exit 2; }; \
	sim=sim/; if [ "$$dir" = . ]; then rel="$$sim"; else rel=$${sim#$$dir/}; fi; \
	set -- -E '(^|/)generated\.go$$' -E '_gen\.go$$'; \
	[ "$$rel" != "$$sim" ] || [ "$$dir" = . ] && set -- "$$@" -E "^$$rel"; \
	if [ -n '$(FILES)' ]; then for f in $$(cd $$dir && find . -name '*.go' ! -name '*_test.go' | sed 's|^\./||'); do \
		echo "$$f" | grep -Eq '$(FILES)' || set -- "$$@" -E "^$$f$$"; done; fi; \
	echo "mutate: $$dir (gremlins $(GREMLINS_VERSION), own-package tests, $(MUTATE_WORKERS) worker(s))"; \
	GOFLAGS="$$GOFLAGS -count=1 -vet=off" $(GO) run github.com/go-gremlins/gremlins/cmd/gremlins@$(GREMLINS_VERSION) unleash \
		--workers $(MUTATE_WORKERS) --timeout-coefficient $(MUTATE_TIMEOUT) -S lt $(MUTATE_FLAGS) "$$@" ./$$dir 2>&1 | \
	awk -v d="$$dir" '/ at [^ ]+:[0-9]+:[0-9]+$$/ { n = split($$0, w, " at "); p = w[n]; if (d != ".") p = d "/" p; \
		sub(/ at [^ ]+$$/, ""); gsub(/^ +/, ""); printf "  %-40s %s\n", p, $$0; fflush(); next } \
		/^(Killed|Timed out|Test efficacy|Mutator coverage|Mutation testing completed|No results)/ { print; next } \
		/[Ee]rror|FAIL|panic/ { print }'
