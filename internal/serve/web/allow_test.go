package web_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kstreams-groups/kstreams-groups/internal/serve/web"
)

// TestAPI_methodNotAllowedSaysAllow (W14): every 405 of the API, of the
// page and of its files names the methods taken (RFC 9110, 15.5.6).
func TestAPI_methodNotAllowedSaysAllow(t *testing.T) {
	srv := httptest.NewServer(web.Handler(newSource(syntheticCluster("prod", 1))))
	defer srv.Close()
	for _, path := range []string{"/api/v1/clusters", "/api/v1/groups", "/api/v1/clusters/prod/check", "/api/v1/nothing", "/", "/assets/app.js"} {
		for _, method := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch} {
			req, err := http.NewRequest(method, srv.URL+path, strings.NewReader("{}"))
			require.NoError(t, err)
			res, err := srv.Client().Do(req)
			require.NoError(t, err)
			res.Body.Close()
			assert.Equal(t, http.StatusMethodNotAllowed, res.StatusCode, "%s %s", method, path)
			assert.Equal(t, "GET, HEAD", res.Header.Get("Allow"), "%s %s", method, path)
		}
	}
}
