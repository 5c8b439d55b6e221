package gateway

import (
	"context"

	"github.com/v2bridge/v2bridge/translate"
)

// handleKeyTransactionList serves GET /v2/key_transactions (filter[name], filter[ids],
// page).
func handleKeyTransactionList(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	req := translate.KeyTransactionListRequest{}
	req.Name, _ = rq.params.Get("filter[name]")
	var err error
	if req.IDs, err = rq.params.IDs("filter[ids]"); err != nil {
		return nil, err
	}
	if req.Page, err = rq.params.Page(); err != nil {
		return nil, err
	}
	doc, paging, err := g.tr.ListKeyTransactions(ctx, rq.caller, req)
	if err != nil {
		return nil, err
	}
	return &result{doc: doc, paging: &paging}, nil
}

// handleKeyTransactionShow serves GET /v2/key_transactions/{id}.
func handleKeyTransactionShow(ctx context.Context, g *Gateway, rq *request) (*result, error) {
	id, err := pathID(rq, "id", "No Key Transaction found with the given ID")
	if err != nil {
		return nil, err
	}
	doc, err := g.tr.ShowKeyTransaction(ctx, rq.caller, id)
	if err != nil {
		return nil, err
	}
	return &result{doc: doc}, nil
}
