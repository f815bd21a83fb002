package main

import (
	"testing"

	"github.com/gameplatform/gamekit"
)

func TestKitIsUsable(t *testing.T) {
	if _, err := gamekit.NewVerifier(map[string]string{}); err != nil {
		t.Fatal(err)
	}
}
