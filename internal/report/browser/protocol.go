package browser

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"

	"golang.org/x/net/websocket"
)

// conn is one DevTools session with a page: commands with ids, events in
// between.
type conn struct {
	ws     *websocket.Conn
	nextID int
	events []message
}

type message struct {
	ID     int             `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

func dial(url string) (*conn, error) {
	ws, err := websocket.Dial(url, "", devtoolsOrigin)
	if err != nil {
		return nil, fmt.Errorf("devtools: %w", err)
	}
	ws.MaxPayloadBytes = 256 << 20 // screenshots of long pages are large
	return &conn{ws: ws}, nil
}

func (c *conn) close() { c.ws.Close() }

// call sends a command and returns its result; events read meanwhile are
// kept in order.
func (c *conn) call(method string, params any) (json.RawMessage, error) {
	c.nextID++
	id := c.nextID
	if err := websocket.JSON.Send(c.ws, map[string]any{"id": id, "method": method, "params": params}); err != nil {
		return nil, fmt.Errorf("devtools %s: %w", method, err)
	}
	for {
		var m message
		if err := websocket.JSON.Receive(c.ws, &m); err != nil {
			return nil, fmt.Errorf("devtools %s: %w", method, err)
		}
		if m.ID == id {
			if m.Error != nil {
				return nil, fmt.Errorf("devtools %s: %s", method, m.Error.Message)
			}
			return m.Result, nil
		}
		if m.Method != "" {
			c.events = append(c.events, m)
		}
	}
}

// waitEvent reads until the event named method arrives (or one already
// did).
func (c *conn) waitEvent(ctx context.Context, method string) error {
	for _, e := range c.events {
		if e.Method == method {
			return nil
		}
	}
	for ctx.Err() == nil {
		var m message
		if err := websocket.JSON.Receive(c.ws, &m); err != nil {
			return fmt.Errorf("devtools: waiting for %s: %w", method, err)
		}
		c.events = append(c.events, m)
		if m.Method == method {
			return nil
		}
	}
	return ctx.Err()
}

// load navigates to url, waits for the load event, evaluates script and
// captures the whole page.
func (c *conn) load(ctx context.Context, url, script string) (*Result, error) {
	for _, m := range []string{"Network.enable", "Page.enable", "Runtime.enable"} {
		if _, err := c.call(m, map[string]any{}); err != nil {
			return nil, err
		}
	}
	if _, err := c.call("Page.navigate", map[string]any{"url": url}); err != nil {
		return nil, err
	}
	if err := c.waitEvent(ctx, "Page.loadEventFired"); err != nil {
		return nil, err
	}
	r := &Result{}
	if script != "" {
		raw, err := c.call("Runtime.evaluate", map[string]any{"expression": script, "returnByValue": true})
		if err != nil {
			return nil, err
		}
		var ev struct {
			Result struct {
				Value json.RawMessage `json:"value"`
			} `json:"result"`
			ExceptionDetails *struct {
				Text string `json:"text"`
			} `json:"exceptionDetails"`
		}
		if err := json.Unmarshal(raw, &ev); err != nil {
			return nil, err
		}
		if ev.ExceptionDetails != nil {
			return nil, fmt.Errorf("the script threw: %s", ev.ExceptionDetails.Text)
		}
		r.Value = ev.Result.Value
	}
	shot, err := c.screenshot()
	if err != nil {
		return nil, err
	}
	r.Screenshot = shot
	c.collect(r)
	return r, nil
}

// screenshot captures the whole page, not only the window.
func (c *conn) screenshot() ([]byte, error) {
	raw, err := c.call("Page.getLayoutMetrics", map[string]any{})
	if err != nil {
		return nil, err
	}
	var lm struct {
		Size struct{ Width, Height float64 } `json:"cssContentSize"`
	}
	if err := json.Unmarshal(raw, &lm); err != nil {
		return nil, err
	}
	raw, err = c.call("Page.captureScreenshot", map[string]any{
		"format": "png", "captureBeyondViewport": true,
		"clip": map[string]any{"x": 0, "y": 0, "width": lm.Size.Width, "height": lm.Size.Height, "scale": 1},
	})
	if err != nil {
		return nil, err
	}
	var shot struct{ Data string }
	if err := json.Unmarshal(raw, &shot); err != nil {
		return nil, err
	}
	return base64.StdEncoding.DecodeString(shot.Data)
}

// collect takes the requests and errors out of the events seen.
func (c *conn) collect(r *Result) {
	for _, e := range c.events {
		switch e.Method {
		case "Network.requestWillBeSent":
			var p struct {
				Request struct{ URL string } `json:"request"`
			}
			if json.Unmarshal(e.Params, &p) == nil {
				r.Requests = append(r.Requests, p.Request.URL)
			}
		case "Runtime.exceptionThrown":
			r.Errors = append(r.Errors, string(e.Params))
		case "Runtime.consoleAPICalled":
			var p struct{ Type string }
			if json.Unmarshal(e.Params, &p) == nil && p.Type == "error" {
				r.Errors = append(r.Errors, string(e.Params))
			}
		}
	}
}
