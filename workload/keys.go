package workload

// APIKeys are the API keys a drill uses, the run's and each rung's: every
// journal writer redacts them from every line.
func (c Config) APIKeys() []string {
	keys := []string{c.Endpoint.APIKey}
	for _, ep := range c.RungEndpoints {
		keys = append(keys, ep.APIKey)
	}
	return keys
}
