package main

// Helpers only the tests use, kept out of the binary.

// exitCodes are the codes the verb can end with, from its declaration.
func (vb *verb) exitCodes() []int {
	if vb.own != nil {
		var codes []int
		for _, s := range vb.own.statuses {
			codes = append(codes, s.Code)
		}
		return codes
	}
	return vb.exits
}

// mapEnviron is an environment of the given variables only.
func mapEnviron(vars map[string]string) environ {
	return environ{lookup: func(key string) (string, bool) {
		v, ok := vars[key]
		return v, ok
	}}
}

// joinOptionalArgs is joinOptionalArgsOf for every verb.
func joinOptionalArgs(args []string) []string {
	return joinOptionalArgsOf(args, verbs())
}

// mcpNoTool is why no tool runs the verb, "" when one does.
func mcpNoTool(verb string) string {
	switch verb {
	case "apply":
		return "upgrade apply writes its offsets to a file of the server's (--export) and runs for minutes across a redeploy: a person runs it in a terminal, with upgrade_plan's answer"
	}
	return ""
}

// short is the one-line form printed by --version.
func (v versionInfo) short() string {
	return "kstreams-groups version " + v.line()
}
