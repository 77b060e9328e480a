#if canImport(Glibc)
import Glibc
#endif

// Everything runs in Commands: libmicrohttpd's callbacks must not be main-actor isolated.
exit(Commands.run(Array(CommandLine.arguments.dropFirst()), environment: Environment.variables))
