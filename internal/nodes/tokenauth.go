package nodes

import (
	"crypto/subtle"
	"strings"

	"github.com/nats-io/nats-server/v2/server"
)

// tokenAuth admits the clients of the embedded NATS server that give the
// master's token, as the server's own Authorization option does, and
// tells the master's log of every one it refuses: an agent refused for
// its token never reaches the master's hello, so without this line the
// master would wait for it in silence while the agent says why it left.
type tokenAuth struct {
	token string
	log   func(format string, args ...any)
}

var _ server.Authentication = tokenAuth{}

// Check runs on the NATS server's goroutine of the connecting client.
func (a tokenAuth) Check(c server.ClientAuthentication) bool {
	o := c.GetOpts()
	if subtle.ConstantTimeCompare([]byte(o.Token), []byte(a.token)) == 1 {
		return true
	}
	name := strings.TrimPrefix(o.Name, "dbgauge agent ")
	if name == "" {
		name = "(unnamed)"
	}
	why := "a wrong token"
	if o.Token == "" {
		why = "no token"
	}
	a.log("refused agent %s from %s: it gave %s: give it the master's (--token or $DBGAUGE_TOKEN)", name, c.RemoteAddress(), why)
	return false
}
