package fakemodel_test

import (
	"bytes"
	"strings"
)

func bytesReader(b []byte) *bytes.Reader     { return bytes.NewReader(b) }
func stringsReader(s string) *strings.Reader { return strings.NewReader(s) }
