package tools

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/listen"
)

// Loopback serves the two services on loopback sockets (127.0.0.1, a free
// port each) until ctx ends, and returns a client of them: the socket path,
// for drills that want real connections rather than NewInProcess's
// transports. wrap, if not nil, wraps each service's transport as for
// NewInProcess. After ctx ends the servers close and calls fail.
func Loopback(ctx context.Context, set []emails.Email, latency time.Duration, wrap func(dependency string, rt http.RoundTripper) http.RoundTripper) (*Client, error) {
	shop := NewShop(set)
	urls := map[string]string{}
	for dep, h := range map[string]http.Handler{Orders: OrderService(shop, latency), Carrier: CarrierService(shop, latency)} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("tools: listening for the %s service: %w", dep, err)
		}
		srv := &http.Server{Handler: h}
		fair := listen.Configure(srv, ln, listen.Limits{IdleTimeout: time.Minute}) // drill's listener limits
		go srv.Serve(fair)
		go func() {
			<-ctx.Done()
			srv.Close()
		}()
		urls[dep] = "http://" + ln.Addr().String()
	}
	transport := func(dep string) http.RoundTripper {
		var rt http.RoundTripper = http.DefaultTransport.(*http.Transport).Clone()
		if wrap != nil {
			rt = wrap(dep, rt)
		}
		return rt
	}
	return &Client{
		Orders:    &http.Client{Transport: transport(Orders)},
		Carrier:   &http.Client{Transport: transport(Carrier)},
		OrdersURL: urls[Orders], CarrierURL: urls[Carrier],
	}, nil
}
