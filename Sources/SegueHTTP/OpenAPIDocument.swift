// Generated from openapi.yaml by `make openapi-source`; a test keeps the two equal.
enum OpenAPIDocument {
    static let yaml = """
openapi: 3.1.0
"""
}
