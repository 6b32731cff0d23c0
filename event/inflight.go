package event

// ServedRejected is the served-by value of an email the workload's worker
// pool had no worker for (--max-in-flight): it was turned away at once,
// without a model call, as a service with a fixed pool of workers fails
// work it cannot take. Its wait is the time to the rejection.
const ServedRejected = "rejected"
