package workload

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// ClientConfig is how a run wants its transactions run.
type ClientConfig struct {
	// Prepare asks for every statement to be prepared once per session,
	// in Client.Setup.
	Prepare bool
	// Isolation is the isolation level of the transactions.
	Isolation dbms.Isolation
	// Procedure, when set, is the server-side procedure form (from the
	// workload's Procedurer): one call per transaction.
	Procedure *Procedure
	// Retry says the run repeats a failed transaction (Session.Attempt >
	// 0 happens): a client that keeps state for a repetition keeps it
	// only then, off the path of a run that never repeats.
	Retry bool
	// Tagged asks every writing transaction to carry its tag
	// (Session.TakeTag) for the check of acknowledged writes; only asked
	// of a Tagger.
	Tagged bool
	// Client is the client's number among the Clients of the whole load
	// (node x threads + thread, over every node of a distributed load);
	// Scale is the scale its load measures; Seed is the seed of that
	// scale's inputs, the same run after run. A client whose inputs come
	// from generators of its own (a script's) seeds them from these.
	Client, Clients int
	Scale           int64
	Seed            uint64
}

// Client runs one driver thread's transactions. Its methods are never
// called concurrently (the thread's sessions are set up before its
// goroutine starts, or by it); it may keep inputs and buffers of its own
// and should allocate nothing per transaction.
type Client interface {
	// Setup runs on every new session of the thread, before any
	// transaction: prepare the statements (ClientConfig.Prepare). tx is
	// the session's engine as a Transactor: a client that needs another
	// of its abilities asserts it on tx.
	Setup(ctx context.Context, tx dbms.Transactor) error
	// Run runs one attempt of one transaction: it begins and commits the
	// transaction itself and returns nil once it committed, or the error
	// (the caller rolls the session back). It returns the index in
	// Workload.Types of the type it ran, also on an error. A retry
	// (Session.Attempt > 0) repeats the same type with the same inputs.
	Run(ctx context.Context, s *Session) (typ int, err error)
}

// Session is what one attempt runs on: the driver's session as a
// workload sees it. The caller fills it before each call of Client.Run.
type Session struct {
	Tx dbms.Transactor
	// Rand is the thread's seeded generator: draw inputs from it only, so
	// that a run's inputs are the same run after run.
	Rand *rand.Rand
	// Attempt is 0 for a transaction's first attempt, n for its n-th
	// retry: draw new inputs only on 0.
	Attempt int
	// Scale is the scale being measured.
	Scale int64
	// Client is the client's number among all clients of the load, the
	// first half of a tag.
	Client int
	// NextSeq numbers the client's tags; nil when the load is not tagged.
	NextSeq func() int64
	// Seq is the sequence number of the tag this attempt wrote (TakeTag),
	// 0 when it wrote none; the caller zeroes it before each call.
	Seq int64
	// Engine is the session Tx is a side of, for a client that needs
	// more of it than transactions (dbms.TextQuerier).
	Engine dbms.Engine
	// Retries are the retries the client made itself within this attempt
	// (a script re-run after a serialization failure, its variables
	// restored, as pgbench's --max-tries does); the caller zeroes it
	// before each call and counts them for the attempt's type.
	Retries int
	// Counts are the client's counts (Counter), by index in CountNames:
	// a client adds what its attempt's inputs were; the caller takes and
	// zeroes them after each call (also after a failed attempt: an input
	// drawn is counted once, on the attempt that drew it). Nil for a
	// workload that counts nothing.
	Counts []int64
	// Timer receives the elapsed time of each statement the attempt ran,
	// by its index among the type's statements (Statementer); never nil
	// when the caller times statements.
	Timer StatementTimer
}

// StatementTimer takes the elapsed time of statement i of the attempt's
// type (the driver's session is one). It must not allocate per call.
type StatementTimer interface {
	Statement(i int, d time.Duration)
}

// TakeTag is the tag a writing attempt writes: a new sequence number of
// the client, which the check of acknowledged writes then looks for.
func (s *Session) TakeTag() (client int, seq int64) {
	s.Seq = s.NextSeq()
	return s.Client, s.Seq
}

// ErrIdle is what a client's Run returns when it has nothing to run at
// this scale (a terminal of a warehouse the scale does not have): its
// thread ends the cycle at once, with no failed trial, and starts the
// next cycle the same way.
var ErrIdle = errors.New("the client has nothing to run at this scale")

// ErrCommitInDoubt marks a COMMIT lost with its connection (an error of a
// transient class, dbms.Class.Transient): the server may have committed
// before the session went, so the client cannot tell. The consistency
// check allows each such commit to be there or not (Commits.InDoubt).
var ErrCommitInDoubt = errors.New("commit in doubt")

// Commit commits and marks a commit whose outcome the client cannot know
// (ErrCommitInDoubt): the way a client ends a writing transaction.
func Commit(ctx context.Context, tx dbms.Transactor) error {
	err := tx.Commit(ctx)
	if err != nil && dbms.Classify(err).Transient() {
		return &inDoubt{err}
	}
	return err
}

type inDoubt struct{ err error }

func (e *inDoubt) Error() string   { return ErrCommitInDoubt.Error() + ": " + e.err.Error() }
func (e *inDoubt) Unwrap() []error { return []error{e.err, ErrCommitInDoubt} }
