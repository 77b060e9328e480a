#!/bin/sh
# Regenerates Sources/SegueHTTP/OpenAPIDocument.swift from openapi.yaml: the document as a raw
# multi-line string literal, byte for byte (OpenAPITests keeps the two equal).
set -eu
cd "$(dirname "$0")/.."
source=openapi.yaml
target=Sources/SegueHTTP/OpenAPIDocument.swift

# A raw string `#"""` ends at `"""#` and interpolates `\#(`; a multi-line literal normalises CR.
if grep -q '"""#' "$source" || grep -q '\\#' "$source" || grep -q "$(printf '\r')" "$source"; then
    echo "openapi-source: $source contains \"\"\"#, \\# or a carriage return; it cannot be embedded" >&2
    exit 1
fi
# The literal drops the newline before its closing delimiter: the file must end with one, and the
# empty line written after it restores it.
if [ -n "$(tail -c 1 "$source")" ]; then
    echo "openapi-source: $source must end with a newline" >&2
    exit 1
fi

temporary="$target.tmp.$$"
{
    printf '%s\n' '// Generated from openapi.yaml by scripts/openapi-source.sh; a test keeps the two equal.'
    printf '%s\n' 'enum OpenAPIDocument {'
    printf '%s\n' '    static let yaml = #"""'
    cat "$source"
    printf '\n'
    printf '%s\n' '"""#'
    printf '%s\n' '}'
} > "$temporary"
mv "$temporary" "$target"
echo "openapi-source: wrote $target"
