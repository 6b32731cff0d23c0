package fakemodel

import (
	"go/build"
	"strings"
	"testing"
)

// TestNoAnswerKey: the fake model's code imports nothing from drill but the
// answer package, which holds no data, and the formatter, the JSON
// scanner and the shared listener, which import nothing of drill's, so it cannot reach the answer
// key even by accident.
// (Tests may read the data set to score the readers.)
func TestNoAnswerKey(t *testing.T) {
	for dir, allowed := range map[string][]string{
		".":           {"github.com/drill-dev/drill/internal/answer", "github.com/drill-dev/drill/internal/format", "github.com/drill-dev/drill/internal/jsonscan", "github.com/drill-dev/drill/internal/listen"},
		"../answer":   nil,
		"../format":   nil,
		"../jsonscan": nil,
		"../listen":   nil,
	} {
		pkg, err := build.ImportDir(dir, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range pkg.Imports {
			if !strings.HasPrefix(imp, "github.com/drill-dev/drill") {
				continue
			}
			ok := false
			for _, a := range allowed {
				ok = ok || imp == a
			}
			if !ok {
				t.Errorf("package %s imports %s", pkg.ImportPath, imp)
			}
		}
	}
}
