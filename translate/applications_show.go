package translate

import (
	"context"
	"fmt"
	"strconv"

	ng "github.com/v2bridge/v2bridge/graphql"
	v2 "github.com/v2bridge/v2bridge/translate/v2"
)

// ShowApplication answers GET /v2/applications/{id}, from the caller's entity cache
// for EntityTTL (the document is then shared by the requests it answers, read only,
// with its rendered bytes). A write to the account through the gateway retires the
// entries of every caller of that account (accountWrites).
func (t *Translator) ShowApplication(ctx context.Context, c Caller, id int64) (*v2.ApplicationShow, error) {
	var key string
	if t.entities != nil {
		key = t.appEntityKey(c, id)
		if v, ok := t.entities.Get(key); ok {
			return v.(*v2.ApplicationShow), nil
		}
	}
	a, _, capped, err := t.readApplication(ctx, c, id)
	if err != nil {
		return nil, err
	}
	doc := &v2.ApplicationShow{Application: *a}
	if t.entities != nil && !capped { // a capped answer is read again, and declared, each time
		doc.Share()
		t.entities.Set(key, doc)
	}
	return doc, nil
}

func (t *Translator) appEntityKey(c Caller, id int64) string {
	var b [20]byte
	return t.writeScoped(c, "application", string(strconv.AppendInt(b[:0], id, 10)))
}

// wroteAccount retires the cached application reads of every caller of c's account
// after a write through the gateway (also after a failed one: it may have half applied).
func (t *Translator) wroteAccount(c Caller) { t.writes.Bump(c.AccountID) }

// ErrApplicationNotFound is REST v2's 404 for application ids it does not know.
func ErrApplicationNotFound() *v2.Error {
	return v2.NotFound("No Application found with the given ID")
}

func (t *Translator) application(ctx context.Context, c Caller, id int64) (*v2.Application, error) {
	a, _, err := t.applicationWithBrowser(ctx, c, id)
	return a, err
}

// applicationWithBrowser also returns the injected browser application, if any.
func (t *Translator) applicationWithBrowser(ctx context.Context, c Caller, id int64) (*v2.Application, *browserInfo, error) {
	a, b, _, err := t.readApplication(ctx, c, id)
	return a, b, err
}

// readApplication is applicationWithBrowser, and whether the application's inventory
// filled uniques() (MaxUniques or more hosts or agent instances in the inventory
// window: its links are the first ones met; noted on ctx).
func (t *Translator) readApplication(ctx context.Context, c Caller, id int64) (*v2.Application, *browserInfo, bool, error) {
	if id <= 0 {
		return nil, nil, false, ErrApplicationNotFound()
	}
	inv, err := inventoryNRQL([]int64{id}, t.until(), MaxFacets)
	if err != nil {
		return nil, nil, false, err
	}
	resp, err := ng.AppShow(ctx, t.client, AppGUID(c.AccountID, DomainAPM, id), int(c.AccountID), inv)
	var lost []Cap // parts of the answer a failed sub-query took away, declared and not cached
	if err != nil {
		if !ng.OnlyAt(err, "actor.account", "actor.entity.browser") {
			return nil, nil, false, fmt.Errorf("application %d: %w", id, err)
		}
		t.warn(ctx, "application enrichment", err)
		if failedAt(err, "actor.account") {
			lost = append(lost, CapInventoryFailed)
		}
		if failedAt(err, "actor.entity.browser") {
			lost = append(lost, CapBrowsersFailed)
		}
	}
	ent := resp.GetActor().GetEntity()
	if ent == nil || !ent.IsApmApplication() || int64(ent.AccountId) != c.AccountID || appIDOf(ent) != id {
		return nil, nil, false, ErrApplicationNotFound()
	}
	var browser *browserInfo
	if rel := ent.Browser; rel != nil {
		m := map[int64]browserInfo{}
		for _, edge := range rel.Results {
			if edge == nil {
				continue
			}
			for _, end := range []*ng.RelatedEnd{edge.Source, edge.Target} {
				if end != nil && end.Entity != nil {
					addBrowser(m, end.Entity)
				}
			}
		}
		if b, ok := m[id]; ok {
			browser = &b
		}
	}
	var invMap map[int64]*appInventory
	capped := false
	if acct := resp.GetActor().GetAccount(); acct != nil && acct.Inventory != nil {
		var read invRead
		invMap, read = parseInventory(ctx, t, acct.Inventory.Results)
		if capped = read.capped; capped {
			noteCap(ctx, CapInventory)
		}
	}
	noteCaps(ctx, lost)
	a := buildApplication(ent, c.AccountID, browser, invMap[id], false, nil)
	return &a, browser, capped || len(lost) > 0, nil
}
