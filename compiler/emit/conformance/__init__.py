"""The conformance target: each system's kit of calls and exact answers, which every runtime runs."""
