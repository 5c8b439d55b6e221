package restv2

import "testing"

func TestRenderMemoRemembersOnlyShared(t *testing.T) {
	var own RenderMemo
	own.Remember("application/json", []byte("{}"), `"t"`)
	if _, _, ok := own.Rendered("application/json"); ok || own.Shared() {
		t.Fatal("a document answering one request kept its rendering")
	}
	var shared RenderMemo
	shared.Share()
	shared.Remember("application/json", []byte("{}"), `"t"`)
	if b, tag, ok := shared.Rendered("application/json"); !ok || string(b) != "{}" || tag != `"t"` {
		t.Fatalf("a shared document forgot its rendering: %q %v", b, ok)
	}
	if _, _, ok := shared.Rendered("application/xml"); ok {
		t.Fatal("a rendering remembered for another format")
	}
}
