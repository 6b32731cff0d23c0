package redisstore_test

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/drill-dev/drill/internal/fleet/redisstore"
	"github.com/drill-dev/drill/internal/fleet/redisstore/redistest"
)

// Ping says a store with nothing listening cannot be reached.
func TestPingNothingListening(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	err = redisstore.Ping(t.Context(), "redis://"+addr+"/0", time.Second)
	if err == nil || !strings.Contains(err.Error(), "cannot be reached") {
		t.Errorf("Ping with nothing listening: %v", err)
	}
}

// Ping answers nil for a running Redis and says a wrong password is
// refused, without printing the password.
func TestPingPassword(t *testing.T) {
	srv := redistest.Start(t)
	if err := redisstore.Ping(t.Context(), srv.URL(), 2*time.Second); err != nil {
		t.Fatalf("Ping a running Redis: %v", err)
	}
	opts, err := redis.ParseURL(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(opts)
	defer c.Close()
	if err := c.ConfigSet(context.Background(), "requirepass", "right-secret").Err(); err != nil {
		t.Fatal(err)
	}
	wrong := strings.Replace(srv.URL(), "redis://", "redis://:wrong-secret@", 1)
	err = redisstore.Ping(t.Context(), wrong, 2*time.Second)
	if err == nil || !strings.Contains(err.Error(), "refused the password") || strings.Contains(err.Error(), "wrong-secret") {
		t.Errorf("Ping with a wrong password: %v", err)
	}
	right := strings.Replace(srv.URL(), "redis://", "redis://:right-secret@", 1)
	if err := redisstore.Ping(t.Context(), right, 2*time.Second); err != nil {
		t.Errorf("Ping with the right password: %v", err)
	}
}
