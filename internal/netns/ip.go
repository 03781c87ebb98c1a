package netns

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// ipTimeout bounds one ip command: each takes milliseconds, so one that
// hangs is a broken machine, and a test must not wait on it forever.
const ipTimeout = 30 * time.Second

// ip runs the ip command (iproute2) and returns its standard output. The
// error names the command and carries ip's own message.
func ip(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), ipTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, "ip", args...).Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) && len(exit.Stderr) > 0 {
			err = errors.New(strings.TrimSpace(string(exit.Stderr)))
		}
		return "", fmt.Errorf("ip %s: %w", strings.Join(args, " "), err)
	}
	return string(out), nil
}
