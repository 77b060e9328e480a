// The command tree is synchronous and nonisolated (Commands.swift): libmicrohttpd's callbacks,
// which `serve` sets up, must not be main-actor isolated. `main()` exits 64 on a usage error and 0
// after `--help` (docs/cli.md "Exit codes").
Segue.main()
