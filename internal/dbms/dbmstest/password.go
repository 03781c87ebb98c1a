package dbmstest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbgauge/dbgauge/internal/dbms"
)

// PasswordCase is one way of giving the password of a URL that gives
// none: the environment it sets and the files it writes under a fresh
// HOME (mode 0600); then either a session opens as User, or the open is
// refused as bad input with a message holding Says ($HOME in Env and
// Says stands for that HOME).
type PasswordCase struct {
	Name  string
	Env   map[string]string
	Files map[string]string
	// User is what the session's own SQL says it is logged in as
	// (empty: the open must fail).
	User string
	Says string
}

// CheckPasswords opens raw, a URL of a server that asks for a password
// and without one, under each case: HOME a fresh directory, the
// variables clear (and dbgauge's own) empty but for the case's. whoAmI is
// the engine's SQL for the user of the session.
func CheckPasswords(t *testing.T, raw, whoAmI string, clear []string, cases []PasswordCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			home := t.TempDir()
			t.Setenv("HOME", home)
			for _, v := range append(clear, dbms.PasswordEnv) {
				t.Setenv(v, "")
			}
			for k, v := range tc.Env {
				t.Setenv(k, strings.ReplaceAll(v, "$HOME", home))
			}
			for name, text := range tc.Files {
				if err := os.WriteFile(filepath.Join(home, name), []byte(text), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			e, err := dbms.Open(ctx, raw)
			if tc.User == "" {
				if err == nil {
					e.Close()
					t.Fatalf("%s opened a session, want a refusal saying %q", raw, tc.Says)
				}
				says := strings.ReplaceAll(tc.Says, "$HOME", home)
				if dbms.Classify(err) != dbms.BadInput || !strings.Contains(err.Error(), says) {
					t.Errorf("%s: %v (class %v), want bad input saying %q", raw, err, dbms.Classify(err), says)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", raw, err)
			}
			defer e.Close()
			rows, err := e.QueryRows(ctx, whoAmI)
			if err != nil || len(rows) != 1 || !strings.HasPrefix(strings.ToLower(rows[0][0]), strings.ToLower(tc.User)) {
				t.Errorf("%s: logged in as %v (%v), want %s", whoAmI, rows, err, tc.User)
			}
		})
	}
}
