package inject

import (
	"context"
	"net/http"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/tools"
)

// chatCall makes one call of the chat workload about msgs with the tools
// offered and tool_choice choice, streamed or not, and returns the
// assistant message and its finish reason.
func chatCall(ctx context.Context, c openai.Client, msgs []openai.ChatCompletionMessageParamUnion, choice string, stream bool) (openai.ChatCompletionMessage, string, error) {
	p := openai.ChatCompletionNewParams{Model: fakemodel.ModelMini, Messages: msgs, Tools: tools.Definitions()}
	p.ToolChoice.OfAuto = openai.String(choice)
	if !stream {
		resp, err := c.Chat.Completions.New(ctx, p)
		if err != nil {
			return openai.ChatCompletionMessage{}, "", err
		}
		return resp.Choices[0].Message, resp.Choices[0].FinishReason, nil
	}
	p.StreamOptions.IncludeUsage = openai.Bool(true)
	s := c.Chat.Completions.NewStreaming(ctx, p)
	defer s.Close()
	var acc openai.ChatCompletionAccumulator
	for s.Next() {
		acc.AddChunk(s.Current())
	}
	if err := s.Err(); err != nil {
		return openai.ChatCompletionMessage{}, "", err
	}
	return acc.Choices[0].Message, acc.Choices[0].FinishReason, nil
}

// question is the first message of a chat about email i (0-based).
func question(i int) []openai.ChatCompletionMessageParamUnion {
	return []openai.ChatCompletionMessageParamUnion{openai.UserMessage(email(i).Text())}
}

// modelClient is an SDK client of the in-process fake model with no
// injector: what the model answers without a fault.
func modelClient() openai.Client {
	return openai.NewClient(option.WithBaseURL("http://fake-model.invalid/v1"), option.WithAPIKey("k"),
		option.WithHTTPClient(&http.Client{Transport: fakemodel.New(fakemodel.Options{Seed: 1}).Transport()}))
}
