package fakemodel

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// APIError is an error in OpenAI's JSON shape:
// {"error":{"message":...,"type":...,"param":...,"code":...}}, sent with
// Status.
type APIError struct {
	Status  int     `json:"-"`
	Message string  `json:"message"`
	Type    string  `json:"type"`
	Param   *string `json:"param"`
	Code    *string `json:"code"`
}

// Error describes the error with its status, type and message.
func (e *APIError) Error() string {
	return fmt.Sprintf("%d %s: %s", e.Status, e.Type, e.Message)
}

func strp(s string) *string { return &s }

func badRequest(param, code, format string, a ...any) *APIError {
	e := &APIError{Status: http.StatusBadRequest, Type: "invalid_request_error", Message: fmt.Sprintf(format, a...)}
	if param != "" {
		e.Param = strp(param)
	}
	if code != "" {
		e.Code = strp(code)
	}
	return e
}

func modelNotFound(model string) *APIError {
	return &APIError{
		Status:  http.StatusNotFound,
		Type:    "invalid_request_error",
		Message: fmt.Sprintf("The model `%s` does not exist or you do not have access to it.", model),
		Param:   strp("model"),
		Code:    strp("model_not_found"),
	}
}

func writeError(w http.ResponseWriter, e *APIError) {
	b, _ := json.Marshal(struct {
		Error *APIError `json:"error"`
	}{e})
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", fmt.Sprint(len(b)+1))
	w.WriteHeader(e.Status)
	w.Write(append(b, '\n'))
}
