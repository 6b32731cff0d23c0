package exit

import "errors"

// Worst picks, across the runs of one command, the error whose exit code
// matters most: interrupted, then aborted, else all of them joined (1 when
// any is non-nil).
func Worst(errs []error) error {
	for _, target := range []error{ErrInterrupted, ErrAborted} {
		for _, err := range errs {
			if errors.Is(err, target) {
				return err
			}
		}
	}
	return errors.Join(errs...)
}
