package sql

import (
	"strings"

	"github.com/plrun/plrun/sql/infoschema"
	"github.com/plrun/plrun/txn"
)

// liveTxn is a transaction the session began, as PLRUN_TRX lists it
// while it has not ended.
type liveTxn struct {
	x         *txn.Live
	isolation string
	readOnly  bool
}

// publishTxn lists x among the session's transactions for
// information_schema.PLRUN_TRX, dropping the ones that have ended.
func (s *Session) publishTxn(x *txn.Txn, isolation string, readOnly bool) {
	s.mu.Lock()
	kept := s.live[:0]
	for _, l := range s.live {
		if !l.x.Ended() {
			kept = append(kept, l)
		}
	}
	s.live = append(kept, liveTxn{x: x.Live(), isolation: isolation, readOnly: readOnly})
	s.mu.Unlock()
}

// liveTrxLocked are the session's transactions that have not ended;
// s.mu is held.
func (s *Session) liveTrxLocked() []infoschema.TrxInfo {
	var out []infoschema.TrxInfo
	for _, l := range s.live {
		if l.x.Ended() {
			continue
		}
		out = append(out, infoschema.TrxInfo{ID: l.x.ID, Session: s.id, Started: l.x.Started,
			RowsChanged: l.x.RowsChanged(), ReadOnly: l.readOnly, Isolation: strings.ReplaceAll(l.isolation, "-", " ")})
	}
	return out
}
