package gateway

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	gql "github.com/Khan/genqlient/graphql"
	"go.uber.org/zap"

	"github.com/v2bridge/v2bridge/translate"
)

// refusingClient stands for the NerdGraph transport and counts what reaches it.
type refusingClient struct{ calls atomic.Int64 }

func (c *refusingClient) MakeRequest(context.Context, *gql.Request, *gql.Response) error {
	c.calls.Add(1)
	return errors.New("explain reached the NerdGraph transport")
}

var explainClock = time.Date(2026, 4, 20, 12, 0, 0, 0, time.UTC)

// explainGateway is a gateway whose translator's transport counts what reaches it.
func explainGateway(cfg Config) (*Gateway, *refusingClient) {
	c := &refusingClient{}
	cfg.Now = func() time.Time { return explainClock }
	tr := translate.New(c, translate.Options{Now: cfg.Now})
	return New(cfg, tr, zap.NewNop()), c
}
