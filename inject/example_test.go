package inject_test

import (
	"fmt"
	"net/http"
	"time"

	"github.com/drill-dev/drill/inject"
)

// A window from --outage rate-limit --fault retry_after=20s --fault rate=0.5,
// scheduled on an injector in front of the model's transport.
func ExampleParseFault() {
	w, err := inject.ParseFault("rate-limit", []string{"retry_after=20s", "rate=0.5"})
	if err != nil {
		panic(err)
	}
	w.From, w.To = 15*time.Second, 40*time.Second
	in := inject.New(http.DefaultTransport, time.Now(), inject.Options{Seed: 1})
	if err := in.Add(w); err != nil {
		panic(err)
	}
	fmt.Println(inject.LogParams(w))

	_, err = inject.ParseFault("rate-limit", []string{"retry_afer=20s"})
	fmt.Println(err)
	// Output:
	// map[rate:0.5 retry_after:20s spend_cap:false]
	// unknown key "retry_afer" for rate-limit (valid: retry_after, spend_cap, rate, ramp, flap, flap.on, flap.off, models, replicas)
}
