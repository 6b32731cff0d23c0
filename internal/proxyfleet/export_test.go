package proxyfleet

// Abandon stops the member as a crash would: no more heartbeats, events or
// commands, and nothing removed from Redis.
func (m *Member) Abandon() {
	m.cancel()
	m.wg.Wait()
	_ = m.c.Close()
}
