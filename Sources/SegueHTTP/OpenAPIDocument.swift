// Generated from openapi.yaml by scripts/openapi-source.sh; a test keeps the two equal.
enum OpenAPIDocument {
    static let yaml = #"""
openapi: 3.1.0
info:
  title: Segue
  version: 1.0.0
  summary: UIKit and CSS timing curves and springs, sampled over HTTP.
  description: |
    Segue evaluates the timing curves of UIKit, Core Animation, SwiftUI and CSS — cubic Béziers,
    steps, `linear()` and springs in every common parametrisation — and answers with their samples.
    The contract is API.md (version 1); this document describes what this build of the service
    implements and records, in `x-segue-choices`, each decision Segue made where API.md is silent.

    Conventions (API.md §1):
    - JSON in, JSON out, UTF-8. Times in seconds.
    - Numbers in responses are finite and printed in the shortest form that reads back to the same
      double; integral values print without a fraction and −0 prints as `0`. A computation that
      would produce NaN or ±Infinity is a 422, never a response.
    - Request bodies are read as JSON when `Content-Type` is `application/json`,
      `application/*+json`, `application/x-www-form-urlencoded` (what `curl -d` sends), empty or
      absent; parameters such as `charset` are ignored. Any other type is 415.
    - Errors are `application/problem+json` (RFC 9457, schema `Problem`). Any path not listed
      here answers 404 (`components/responses/NotFound`); a listed path with a method it does not
      list answers 405 with `Allow` (`components/responses/MethodNotAllowed`).
    - HEAD answers wherever GET does, with the same status and headers and no body. Every path
      answers an `OPTIONS` CORS preflight with 204.
    - Every response carries `Access-Control-Allow-Origin` (default `*`) and
      `Access-Control-Expose-Headers: ETag`. Cacheable responses carry a strong `ETag` and
      `If-None-Match` gives 304.
    - Limits (defaults; each configurable at start-up with a flag or environment variable):
      body ≤ 1 MiB (`--max-body`, `SEGUE_MAX_BODY`), JSON nesting ≤ 64 (`--max-depth`),
      `fps` in [1, 1000], duration ≤ 3600 s (`--max-duration`), ≤ 100 000 samples per response
      (`--max-samples`), ≤ 5 000 000 numbers per response (`--max-numbers`);
      `--cors-origin` / `SEGUE_CORS_ORIGIN` sets `Access-Control-Allow-Origin`.
      A request over a result limit is refused with 413 before any sampling, with a `detail`
      naming the limit.
servers:
  - url: http://127.0.0.1:8080
    description: The default `segue serve` address (`--host`, `--port`).
x-segue-choices:
  - "Top-level `settlingDuration`: for a UIKit duration-based spring (`dampingRatio` set) it is the animation's `duration`, because the animation ends there and reads exactly 1 from then on; for every other spring set it is the spring's Core Animation settling duration (`durationForEpsilon: 0.001`), null when infinite (damping 0); for non-spring curves it is null."
  - "`spring.settlingDuration` is always the Core Animation settling duration of the spring itself; for the UIKit set that is the derived spring's, which in general differs from the top-level value (the animation's duration)."
  - "`spring.perceptualDuration` equals `spring.response` (2π√(m/k), SwiftUI's `duration` getter); `spring.bounce` is 1 − ζ for ζ ≤ 1 and 1/ζ − 1 for ζ > 1; `spring.damping` is the damping actually used (clamped to critical for the physical set without `allowsOverdamping`), while the echoed `timing` keeps the damping as given."
  - "An undamped spring (settling duration infinite) without `duration` needs `at`; its `duration` is then the latest `at` time (at least 0)."
  - "A spring without `duration` whose settling duration exceeds the duration limit (3600 s) is a 422 asking for a `duration`. The settling walk for ζ ≥ 1 stops at 3600 s."
  - "In `/v1/curve` a `duration` given with a spring set other than UIKit's is only the sampling window (the spring keeps moving after it); the §2 rule that such a duration is a 422 concerns animations, not curve sampling."
  - "Spring parameter sets are recognised by their members: `mass`, `damping` or `allowsOverdamping` → physical; `response` → response; `perceptualDuration` or `bounce` → perceptual; `bounciness` or `speed` → POP; `tension` or `friction` → Origami; otherwise `stiffness` + `dampingRatio` → Android, `dampingRatio` alone → UIKit, `stiffness` alone → physical. Members of two sets (for example `response` with `stiffness`, or `mass` with `dampingRatio`) are a 422 naming both sets, with `pointer` at the last such member in request order; no set at all is a 422 listing the sets."
  - "Omitted members of a set take that system's defaults: physical mass 1, stiffness 100, damping 10, allowsOverdamping false (CASpringAnimation); perceptual bounce 0 (SwiftUI); POP bounciness 4, speed 12; Origami tension 40, friction 7 (Rebound). The UIKit, Android and response sets need all of their members. `initialVelocity` defaults to 0."
  - "Spring ranges: mass > 0, stiffness > 0, damping ≥ 0, dampingRatio ≥ 0 (every set), response > 0, perceptualDuration > 0, bounce > −1 (ζ = 1/(1 + bounce) below 0, 1 − bounce up to 1, 0 beyond 1), bounciness ≥ 0, speed ≥ 0; Origami tension and friction take any number, but a POP or Origami set whose derived stiffness is not > 0 or damping not ≥ 0 is a 422. The Android, response and perceptual sets, and POP and Origami, use the true over-damped curve."
  - "The UIKit set accepts dampingRatio 0 and above 1: for its solve UIKit clamps dampingRatio to [FLT_EPSILON, 1] and the duration to [0.01, 10] s, and each clamp adds a warning (pointers `/timing/dampingRatio` and `/duration`)."
  - "The echoed `timing` is the normalised object form with every default filled in: steps always carry `position`, the physical set always carries `allowsOverdamping`, every spring carries `initialVelocity`. CSS keywords become `{\"type\": <UIKit name>}`, `step-start` and `step-end` become steps with count 1 and position `start` / `end`, and `linear(…)` (even `linear(0, 1)`) becomes `piecewiseLinear` with its resolved points."
  - "`piecewiseLinear` points given as objects are repaired as CSS repairs `linear()` stops: each input becomes at least the largest input before it. Inputs and outputs may lie outside [0, 1]."
  - "CSS easing strings: keywords and function names are ASCII case-insensitive (so `easeIn`, `easein`, `EASE-IN` are all accepted), surrounding CSS whitespace is ignored, numbers are CSS `<number>` tokens without units; `calc()` and other nested functions are not supported (422)."
  - "A member whose value is `null` is treated as absent everywhere: it takes its default, does not count for the `at`/`fps`/`samples` exclusion or for recognising a spring's parameter set, and a `null` `timing` is missing (422). An unknown member is a 422 naming the first one in request order; a duplicate member name is a 400 `malformed-json`; a member of the wrong JSON type is a 400 `wrong-type`."
  - "At most one of `at`, `fps`, `samples`; a second one is a 422 pointing at it (checked in that order). `samples` must be integral (`10.0` is accepted). `samples` or `at` over the samples limit, an `fps` grid with more frames than the limit, or more than the numbers limit (3 per sample) is a 413."
  - "A time at which the curve has no finite progress (for example a Bézier extrapolated to a huge `at`) is a 422 whose pointer names that `at` element. Where a slope is infinite, `velocity` is ±1.7976931348623157e308 (§6 rule 4)."
  - "`velocity` is the right-hand derivative d(progress)/dt in 1/s: 0 on steps, on vertical `linear()` segments, for springs before t = 0 and for the UIKit spring from its duration on."
  - "Numbers: integral values with magnitude below 2^63 print as integers; all others use Swift's shortest round-trip text, which may use an exponent (`1e-05`, `1.7976931348623157e+308`). CSV uses the same number text."
  - "CSV: media type `text/csv; charset=utf-8`, header `t,progress,velocity`, one row per sample in request order, every line (the last included) ended by LF, no quoting, no `spring` or `warnings` data."
  - "Format negotiation: `?format=` is case-insensitive and wins over `Accept`; an unknown value or one this route does not produce (`svg`, `css` for now) is 406. `Accept` is ranked by q-value, a type taking the quality of its most specific matching range; equal qualities prefer JSON; a blank or absent `Accept` gives JSON; `q=0` excludes. `/healthz` and `/openapi.yaml` ignore `format` and `Accept`."
  - "gzip: `Accept-Encoding` admitting `gzip` (or `x-gzip`, or `*`, with q > 0) gives `Content-Encoding: gzip` on tagged bodies above 1024 bytes (`/v1/curve`, `/openapi.yaml`); smaller bodies, `/healthz` and problem documents go out uncompressed. The compressor is Segue's own (LZ77 + dynamic Huffman, MTIME 0), so the same request gives the same gzip bytes."
  - "ETag: a strong tag of 16 hex digits, a 64-bit hash of the media type, the content coding and the body, so the JSON, CSV and gzip forms of one curve have different tags. `If-None-Match` matches `*` or any listed tag, `W/` prefixes ignored (weak comparison). A 304 carries `ETag`, `Vary` and the CORS headers and no `Content-Type` or body. `Vary: Accept, Accept-Encoding` is sent with every tagged response."
  - "`/healthz` is never cached: `Cache-Control: no-store`, no `ETag`, `If-None-Match` ignored."
  - "Preflight: `OPTIONS` on any listed path answers 204 whatever the `Origin` and `Access-Control-Request-*` headers, with `Allow` and `Access-Control-Allow-Methods` both listing the path's methods plus HEAD (for GET paths) and OPTIONS. `OPTIONS` on an unlisted path is 404."
  - "Paths match exactly: no trailing-slash or case folding (`/v1/curve/` is 404)."
  - "Problem documents: members in the order `type`, `title`, `status`, `detail`, `pointer`; `title` is the status's reason phrase; `pointer` is present whenever one part of the request is at fault (`\"\"` for the whole body, for example an empty body or a syntax error at the top level) and absent for 404, 405, 406, 415 and the body-size and numbers-limit 413s."
  - "A declared `Content-Length` over the body limit is answered 413 before the body is read, on every path and method; a chunked body that grows past the limit is discarded and answered 413."
paths:
  /v1/curve:
    description: |
      Sample one timing curve (API.md §3). Other methods answer 405 with `Allow: POST, OPTIONS`.
    post:
      operationId: sampleCurve
      summary: Sample one timing curve
      description: |
        Samples `timing` at the requested times and answers the progress and its velocity.

        Sample times:
        - `at`: exactly those times, in that order (any finite times, duplicates and negatives
          included; outside `[0, duration]` the curve's natural extension is evaluated);
        - `fps`: `t_i = i / fps` for `i = 0 … ceil(duration · fps − 1e-9)`;
        - otherwise `samples` (default 101): `t_i = duration · i / (samples − 1)`, the last exactly
          `duration`.

        `duration` is the sampling window: default 1 for non-spring curves and the settling
        duration for springs; the UIKit spring (`dampingRatio` alone) requires it and uses it as
        its own duration. Outside `[0, duration]`: Béziers extrapolate along their end tangents,
        steps and `linear()` follow CSS Easing, springs read 0 before 0 and keep moving after
        `duration`, except the UIKit spring, which reads exactly 1 from `duration` on.

        Format: `?format=json|csv` (wins) or `Accept` (`application/json`, `text/csv`); JSON by
        default. `svg` and `css` are not produced yet and answer 406, as does anything else.
      parameters:
        - $ref: '#/components/parameters/Format'
        - $ref: '#/components/parameters/IfNoneMatch'
      requestBody:
        required: true
        description: |
          A JSON `CurveRequest`. Read as JSON when `Content-Type` is `application/json`,
          `application/*+json`, `application/x-www-form-urlencoded`, empty or absent; anything
          else is 415. At most 1 MiB (413) and 64 levels of nesting (400) by default.
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/CurveRequest'
            examples:
              cssString:
                summary: A CSS easing string, 101 samples over 1 s
                value: {"timing": "ease"}
              uikitSpring:
                summary: UIKit spring (usingSpringWithDamping), 60 fps over its duration
                value: {"timing": {"type": "spring", "dampingRatio": 0.6, "initialVelocity": 0}, "duration": 0.8, "fps": 60}
              swiftUISpring:
                summary: SwiftUI Spring(duration:bounce:), 5 samples over its settling duration
                value: {"timing": {"type": "spring", "perceptualDuration": 0.5, "bounce": 0.3}, "samples": 5}
              bezierAt:
                summary: A Bézier at chosen times, extrapolated outside [0, 1]
                value: {"timing": {"type": "cubicBezier", "p1": [0.25, 0.1], "p2": [0.25, 1]}, "at": [-0.5, 0, 0.5, 1, 1.5]}
              cssLinear:
                summary: CSS linear() with a missing input position
                value: {"timing": "linear(0, 0.25, 1 80%, 1)", "samples": 3}
      responses:
        '200':
          description: |
            The sampled curve. JSON (`application/json`) or CSV (`text/csv; charset=utf-8`:
            header `t,progress,velocity`, one row per sample, LF line ends). The tag differs
            between the two formats.
          headers:
            ETag:
              $ref: '#/components/headers/ETag'
            Vary:
              $ref: '#/components/headers/Vary'
            Content-Encoding:
              $ref: '#/components/headers/ContentEncoding'
            Access-Control-Allow-Origin:
              $ref: '#/components/headers/AccessControlAllowOrigin'
            Access-Control-Expose-Headers:
              $ref: '#/components/headers/AccessControlExposeHeaders'
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/CurveResponse'
              example:
                timing: {"type": "ease"}
                duration: 1
                settlingDuration: null
                t: [0, 0.5, 1]
                progress: [0, 0.802403387584857, 1]
                velocity: [0.4000000000000001, 0.9941424524260123, 0]
                warnings: []
            text/csv:
              schema:
                type: string
                description: '`t,progress,velocity` then one row per sample; every line ends with LF.'
              example: "t,progress,velocity\n0,0,0.4000000000000001\n0.5,0.802403387584857,0.9941424524260123\n1,1,0\n"
        '304':
          $ref: '#/components/responses/NotModified'
        '400':
          $ref: '#/components/responses/BadRequest'
        '406':
          $ref: '#/components/responses/NotAcceptable'
        '413':
          $ref: '#/components/responses/TooLarge'
        '415':
          $ref: '#/components/responses/UnsupportedMediaType'
        '422':
          $ref: '#/components/responses/Invalid'
    options:
      operationId: preflightCurve
      summary: CORS preflight
      responses:
        '204':
          description: Preflight accepted.
          headers:
            Allow:
              description: The methods of this path.
              schema: {type: string, const: 'POST, OPTIONS'}
            Access-Control-Allow-Methods:
              schema: {type: string, const: 'POST, OPTIONS'}
            Access-Control-Allow-Headers:
              $ref: '#/components/headers/AccessControlAllowHeaders'
            Access-Control-Max-Age:
              $ref: '#/components/headers/AccessControlMaxAge'
            Access-Control-Allow-Origin:
              $ref: '#/components/headers/AccessControlAllowOrigin'
            Access-Control-Expose-Headers:
              $ref: '#/components/headers/AccessControlExposeHeaders'
        '413':
          $ref: '#/components/responses/TooLarge'
  /healthz:
    description: |
      Liveness. Other methods answer 405 with `Allow: GET, HEAD, OPTIONS`.
    get:
      operationId: getHealth
      summary: Liveness check
      description: Always `{"status":"ok"}` while the server runs; never cached.
      responses:
        '200':
          $ref: '#/components/responses/Health'
        '413':
          $ref: '#/components/responses/TooLarge'
    head:
      operationId: headHealth
      summary: Liveness check, headers only
      responses:
        '200':
          $ref: '#/components/responses/Health'
        '413':
          $ref: '#/components/responses/TooLarge'
    options:
      operationId: preflightHealth
      summary: CORS preflight
      responses:
        '204':
          $ref: '#/components/responses/PreflightGet'
        '413':
          $ref: '#/components/responses/TooLarge'
  /openapi.yaml:
    description: |
      This document. Other methods answer 405 with `Allow: GET, HEAD, OPTIONS`.
    get:
      operationId: getOpenAPI
      summary: This OpenAPI document
      parameters:
        - $ref: '#/components/parameters/IfNoneMatch'
      responses:
        '200':
          $ref: '#/components/responses/Document'
        '304':
          $ref: '#/components/responses/NotModified'
        '413':
          $ref: '#/components/responses/TooLarge'
    head:
      operationId: headOpenAPI
      summary: This OpenAPI document, headers only
      parameters:
        - $ref: '#/components/parameters/IfNoneMatch'
      responses:
        '200':
          $ref: '#/components/responses/Document'
        '304':
          $ref: '#/components/responses/NotModified'
        '413':
          $ref: '#/components/responses/TooLarge'
    options:
      operationId: preflightOpenAPI
      summary: CORS preflight
      responses:
        '204':
          $ref: '#/components/responses/PreflightGet'
        '413':
          $ref: '#/components/responses/TooLarge'
components:
  parameters:
    Format:
      name: format
      in: query
      required: false
      description: |
        Response format; wins over `Accept`. Case-insensitive. `svg` and `css` are not produced
        yet: like any value this route does not produce, they answer 406.
      schema:
        type: string
        enum: [json, csv, svg, css]
    IfNoneMatch:
      name: If-None-Match
      in: header
      required: false
      description: |
        `*` or a comma-separated list of entity tags; a match (weak comparison, `W/` ignored)
        answers 304.
      schema:
        type: string
  headers:
    ETag:
      description: |
        Strong entity tag: 16 hex digits in quotes, a hash of the media type, the content coding
        and the body (deterministic: the same request gives the same tag; JSON, CSV and gzip
        tags differ).
      schema:
        type: string
        pattern: '^"[0-9a-f]{16}"$'
    ContentEncoding:
      description: |
        `gzip` when the request's `Accept-Encoding` admits gzip and the body is above 1024
        bytes; absent otherwise.
      schema:
        type: string
        const: gzip
    Vary:
      description: The headers the body depends on.
      schema:
        type: string
        const: 'Accept, Accept-Encoding'
    CacheControl:
      description: Sent on responses that must not be cached.
      schema:
        type: string
        const: no-store
    AccessControlAllowOrigin:
      description: The configured origin (`--cors-origin`, default `*`), on every response.
      schema:
        type: string
        default: '*'
    AccessControlExposeHeaders:
      description: On every response.
      schema:
        type: string
        const: ETag
    AccessControlAllowHeaders:
      schema:
        type: string
        const: 'Content-Type, If-None-Match, Accept'
    AccessControlMaxAge:
      description: Seconds a preflight may be cached.
      schema:
        type: string
        const: '86400'
    Allow:
      description: The methods the path answers (HEAD wherever GET, and OPTIONS).
      schema:
        type: string
        examples: ['POST, OPTIONS', 'GET, HEAD, OPTIONS']
  responses:
    Health:
      description: The server is up.
      headers:
        Cache-Control:
          $ref: '#/components/headers/CacheControl'
        Access-Control-Allow-Origin:
          $ref: '#/components/headers/AccessControlAllowOrigin'
        Access-Control-Expose-Headers:
          $ref: '#/components/headers/AccessControlExposeHeaders'
      content:
        application/json:
          schema:
            type: object
            additionalProperties: false
            required: [status]
            properties:
              status:
                const: ok
          example: {"status": "ok"}
    Document:
      description: This document, byte for byte.
      headers:
        ETag:
          $ref: '#/components/headers/ETag'
        Content-Encoding:
          $ref: '#/components/headers/ContentEncoding'
        Vary:
          $ref: '#/components/headers/Vary'
        Access-Control-Allow-Origin:
          $ref: '#/components/headers/AccessControlAllowOrigin'
        Access-Control-Expose-Headers:
          $ref: '#/components/headers/AccessControlExposeHeaders'
      content:
        application/yaml:
          schema:
            type: string
    NotModified:
      description: |
        `If-None-Match` matched the current tag. No body and no `Content-Type`.
      headers:
        ETag:
          $ref: '#/components/headers/ETag'
        Vary:
          $ref: '#/components/headers/Vary'
        Access-Control-Allow-Origin:
          $ref: '#/components/headers/AccessControlAllowOrigin'
        Access-Control-Expose-Headers:
          $ref: '#/components/headers/AccessControlExposeHeaders'
    PreflightGet:
      description: Preflight accepted.
      headers:
        Allow:
          description: The methods of this path.
          schema: {type: string, const: 'GET, HEAD, OPTIONS'}
        Access-Control-Allow-Methods:
          schema: {type: string, const: 'GET, HEAD, OPTIONS'}
        Access-Control-Allow-Headers:
          $ref: '#/components/headers/AccessControlAllowHeaders'
        Access-Control-Max-Age:
          $ref: '#/components/headers/AccessControlMaxAge'
        Access-Control-Allow-Origin:
          $ref: '#/components/headers/AccessControlAllowOrigin'
        Access-Control-Expose-Headers:
          $ref: '#/components/headers/AccessControlExposeHeaders'
    BadRequest:
      description: |
        The body is not acceptable JSON. Kinds: `malformed-json` (syntax, an empty body, `NaN` or
        `Infinity`, control characters in strings, lone surrogate escapes, duplicate member names,
        trailing data), `invalid-utf8`, `number-out-of-range` (a literal that is not a finite
        double, such as `1e400`), `nesting-too-deep`, `wrong-type` (a member of the wrong JSON
        type, for example `"samples": "10"`).
      headers:
        Access-Control-Allow-Origin:
          $ref: '#/components/headers/AccessControlAllowOrigin'
        Access-Control-Expose-Headers:
          $ref: '#/components/headers/AccessControlExposeHeaders'
      content:
        application/problem+json:
          schema:
            $ref: '#/components/schemas/Problem'
          example:
            type: https://segue.dev/problems/wrong-type
            title: Bad Request
            status: 400
            detail: '`/samples` must be a number, not string'
            pointer: /samples
    NotFound:
      description: |
        Kind `not-found`: any path not listed in this document, whatever the method.
      headers:
        Access-Control-Allow-Origin:
          $ref: '#/components/headers/AccessControlAllowOrigin'
        Access-Control-Expose-Headers:
          $ref: '#/components/headers/AccessControlExposeHeaders'
      content:
        application/problem+json:
          schema:
            $ref: '#/components/schemas/Problem'
          example:
            type: https://segue.dev/problems/not-found
            title: Not Found
            status: 404
            detail: no route `/v1/curves`
    MethodNotAllowed:
      description: |
        Kind `method-not-allowed`: a listed path with a method it does not list.
      headers:
        Allow:
          $ref: '#/components/headers/Allow'
        Access-Control-Allow-Origin:
          $ref: '#/components/headers/AccessControlAllowOrigin'
        Access-Control-Expose-Headers:
          $ref: '#/components/headers/AccessControlExposeHeaders'
      content:
        application/problem+json:
          schema:
            $ref: '#/components/schemas/Problem'
          example:
            type: https://segue.dev/problems/method-not-allowed
            title: Method Not Allowed
            status: 405
            detail: GET is not allowed on /v1/curve; use POST
    NotAcceptable:
      description: |
        Kind `not-acceptable`: `?format=` names a format this route does not produce (`svg`, `css`
        for now, or an unknown one), or nothing in `Accept` is available.
      headers:
        Access-Control-Allow-Origin:
          $ref: '#/components/headers/AccessControlAllowOrigin'
        Access-Control-Expose-Headers:
          $ref: '#/components/headers/AccessControlExposeHeaders'
      content:
        application/problem+json:
          schema:
            $ref: '#/components/schemas/Problem'
          example:
            type: https://segue.dev/problems/not-acceptable
            title: Not Acceptable
            status: 406
            detail: format `svg` is not available here; this route answers json, csv
    TooLarge:
      description: |
        Kind `too-large`: the body is over the limit (1 MiB by default; a declared
        `Content-Length` over it is refused before the body is read, on any path), or the result
        would exceed a limit: more than 100 000 samples (`samples`, `at`, or the `fps` grid) or
        more than 5 000 000 numbers. Decided before any sampling; `detail` names the limit.
      headers:
        Access-Control-Allow-Origin:
          $ref: '#/components/headers/AccessControlAllowOrigin'
        Access-Control-Expose-Headers:
          $ref: '#/components/headers/AccessControlExposeHeaders'
      content:
        application/problem+json:
          schema:
            $ref: '#/components/schemas/Problem'
          example:
            type: https://segue.dev/problems/too-large
            title: Content Too Large
            status: 413
            detail: '`samples` 200000.0 is over the limit of 100000 samples per response'
            pointer: /samples
    UnsupportedMediaType:
      description: |
        Kind `unsupported-media-type`: a `Content-Type` other than `application/json`,
        `application/*+json` or `application/x-www-form-urlencoded`.
      headers:
        Access-Control-Allow-Origin:
          $ref: '#/components/headers/AccessControlAllowOrigin'
        Access-Control-Expose-Headers:
          $ref: '#/components/headers/AccessControlExposeHeaders'
      content:
        application/problem+json:
          schema:
            $ref: '#/components/schemas/Problem'
          example:
            type: https://segue.dev/problems/unsupported-media-type
            title: Unsupported Media Type
            status: 415
            detail: 'request bodies are JSON; `Content-Type: text/plain` is not accepted'
    Invalid:
      description: |
        Kind `invalid-request`: well-formed but invalid — a missing `timing`, values out of range
        (durations and `fps` included), unknown members, an unknown timing `type`, an invalid CSS
        easing string, a spring whose members mix parameter sets or form none, a UIKit spring
        without `duration`, an undamped spring without `duration` or `at`, a spring settling
        beyond the duration limit without `duration`, more than one of `at`/`fps`/`samples`, an
        empty `at`, or a time at which the curve has no finite value. `pointer` names the member.
      headers:
        Access-Control-Allow-Origin:
          $ref: '#/components/headers/AccessControlAllowOrigin'
        Access-Control-Expose-Headers:
          $ref: '#/components/headers/AccessControlExposeHeaders'
      content:
        application/problem+json:
          schema:
            $ref: '#/components/schemas/Problem'
          example:
            type: https://segue.dev/problems/invalid-request
            title: Unprocessable Content
            status: 422
            detail: a spring takes exactly one parameter set; these members mix the response and physical or Android sets
            pointer: /timing/stiffness
  schemas:
    CurveRequest:
      type: object
      description: |
        `POST /v1/curve`. At most one of `at`, `fps` and `samples` (422 for a second one, with
        `pointer` at it). Unknown members are 422. A `null` member takes its default but counts as
        present for the `at`/`fps`/`samples` exclusion.
      additionalProperties: false
      required: [timing]
      properties:
        timing:
          $ref: '#/components/schemas/Timing'
        duration:
          type: number
          exclusiveMinimum: 0
          maximum: 3600
          description: |
            The sampling window in seconds (maximum: the configurable duration limit). Default 1
            for non-spring curves and the settling duration for springs. Required by the UIKit
            spring, for which it is also the spring's own duration. An undamped spring needs it
            unless `at` is given.
        samples:
          type: integer
          minimum: 2
          maximum: 100000
          default: 101
          description: |
            Evenly spaced samples over `[0, duration]`, both ends included. Over the samples
            limit is 413; below 2 or not integral is 422.
        fps:
          type: number
          minimum: 1
          maximum: 1000
          description: Samples at `i / fps` for `i = 0 … ceil(duration · fps − 1e-9)`.
        at:
          type: array
          minItems: 1
          maxItems: 100000
          description: |
            Exactly these times, in this order: any finite numbers, in any order, negative or
            beyond `duration` included. Empty is 422; over the samples limit is 413.
          items:
            type: number
      not:
        anyOf:
          - required: [at, fps]
          - required: [at, samples]
          - required: [fps, samples]
    Timing:
      description: A CSS easing string, or a timing object by `type` (API.md §2).
      oneOf:
        - $ref: '#/components/schemas/TimingString'
        - $ref: '#/components/schemas/TimingObject'
    TimingString:
      type: string
      description: |
        A CSS `<easing-function>` (CSS Easing Level 2) or a UIKit name:
        `linear`, `ease`, `ease-in`, `ease-out`, `ease-in-out`, `easeIn`, `easeOut`, `easeInOut`,
        `step-start`, `step-end`, `cubic-bezier(x1, y1, x2, y2)` (x1, x2 in [0, 1]),
        `steps(n[, jump-start|jump-end|jump-none|jump-both|start|end])` (n an integer ≥ 1, ≥ 2 for
        `jump-none`; default `jump-end`), `linear(stop, …)` (≥ 2 stops, each a number with up to two
        percentages before or after it; missing and decreasing positions repaired as CSS does).
        Keywords and function names are ASCII case-insensitive; numbers are CSS `<number>` tokens;
        `calc()` and nested functions are not supported. Anything else is 422.
      examples: [ease, ease-in-out, easeInOut, 'cubic-bezier(0.25, 0.1, 0.25, 1)', 'steps(4, jump-none)', 'linear(0, 0.25 25% 50%, 1)']
    TimingObject:
      oneOf:
        - $ref: '#/components/schemas/NamedTiming'
        - $ref: '#/components/schemas/CubicBezierTiming'
        - $ref: '#/components/schemas/StepsTiming'
        - $ref: '#/components/schemas/PiecewiseLinearTiming'
        - $ref: '#/components/schemas/SpringTiming'
      discriminator:
        propertyName: type
        mapping:
          linear: '#/components/schemas/NamedTiming'
          ease: '#/components/schemas/NamedTiming'
          easeIn: '#/components/schemas/NamedTiming'
          easeOut: '#/components/schemas/NamedTiming'
          easeInOut: '#/components/schemas/NamedTiming'
          cubicBezier: '#/components/schemas/CubicBezierTiming'
          steps: '#/components/schemas/StepsTiming'
          piecewiseLinear: '#/components/schemas/PiecewiseLinearTiming'
          spring: '#/components/schemas/SpringTiming'
    NamedTiming:
      type: object
      description: |
        Named cubic Béziers: linear (0, 0, 1, 1), ease (0.25, 0.1, 0.25, 1), easeIn (0.42, 0, 1, 1),
        easeOut (0, 0, 0.58, 1), easeInOut (0.42, 0, 0.58, 1).
      additionalProperties: false
      required: [type]
      properties:
        type:
          type: string
          enum: [linear, ease, easeIn, easeOut, easeInOut]
    CubicBezierTiming:
      type: object
      description: CSS `cubic-bezier()`, `UICubicTimingParameters`.
      additionalProperties: false
      required: [type, p1, p2]
      properties:
        type:
          const: cubicBezier
        p1:
          $ref: '#/components/schemas/ControlPoint'
        p2:
          $ref: '#/components/schemas/ControlPoint'
    ControlPoint:
      type: array
      description: '`[x, y]`, x in [0, 1], y any finite number.'
      prefixItems:
        - type: number
          minimum: 0
          maximum: 1
        - type: number
      minItems: 2
      maxItems: 2
    StepsTiming:
      type: object
      description: CSS `steps()`. `start` behaves as `jumpStart` and `end` as `jumpEnd`; they are kept apart in the echo.
      additionalProperties: false
      required: [type, count]
      properties:
        type:
          const: steps
        count:
          type: integer
          minimum: 1
          maximum: 1000000000
          description: At least 2 for `jumpNone`.
        position:
          type: string
          enum: [jumpStart, jumpEnd, jumpNone, jumpBoth, start, end]
          default: jumpEnd
    PiecewiseLinearTiming:
      type: object
      description: |
        CSS `linear()` with explicit points `[input, output]`; each input is raised to the largest
        input before it, as CSS does. Values may lie outside [0, 1].
      additionalProperties: false
      required: [type, points]
      properties:
        type:
          const: piecewiseLinear
        points:
          type: array
          minItems: 2
          items:
            type: array
            prefixItems:
              - type: number
              - type: number
            minItems: 2
            maxItems: 2
    SpringTiming:
      description: |
        A damped spring from 0 to 1: exactly one parameter set plus an optional `initialVelocity`
        (UIKit's convention: whole distances per second, positive toward the target).
        Which set the members mean:
        `mass`, `damping` or `allowsOverdamping` → physical; `response` → response;
        `perceptualDuration` or `bounce` → perceptual; `bounciness` or `speed` → POP;
        `tension` or `friction` → Origami; otherwise `stiffness` with `dampingRatio` → Android,
        `dampingRatio` alone → UIKit, `stiffness` alone → physical. Members of two sets are a 422
        naming the sets (pointer: the last such member); no member of any set is a 422.
        Omitted members take their system's defaults (shown as `default`); the UIKit, Android
        and response sets need all their members, the perceptual set needs `perceptualDuration`.
        A POP or Origami set whose derived stiffness is not > 0 or damping not ≥ 0 is a 422.
      oneOf:
        - $ref: '#/components/schemas/UIKitSpring'
        - $ref: '#/components/schemas/PhysicalSpring'
        - $ref: '#/components/schemas/AndroidSpring'
        - $ref: '#/components/schemas/ResponseSpring'
        - $ref: '#/components/schemas/PerceptualSpring'
        - $ref: '#/components/schemas/POPSpring'
        - $ref: '#/components/schemas/OrigamiSpring'
    InitialVelocity:
      type: number
      default: 0
      description: Whole distances per second (0.5 is half the distance per second), toward the target.
    UIKitSpring:
      type: object
      title: UIKit duration-based set
      description: |
        `animateWithDuration:…usingSpringWithDamping:initialSpringVelocity:`,
        `UISpringTimingParameters(dampingRatio:initialVelocity:)`. Needs the request's `duration`,
        which is the animation's duration: progress reads exactly 1 from it on. For its solve
        UIKit clamps `dampingRatio` to [FLT_EPSILON, 1] and the duration to [0.01, 10] s; each
        clamp adds a warning. Never over-damped.
      additionalProperties: false
      required: [type, dampingRatio]
      properties:
        type:
          const: spring
        dampingRatio:
          type: number
          minimum: 0
        initialVelocity:
          $ref: '#/components/schemas/InitialVelocity'
    PhysicalSpring:
      type: object
      title: Physical set
      description: |
        `CASpringAnimation`, `UISpringTimingParameters(mass:stiffness:damping:initialVelocity:)`.
        Without `allowsOverdamping` damping beyond critical (2√(km)) is treated as critical, as
        Core Animation does; the response's `spring.damping` reports the damping used.
      additionalProperties: false
      required: [type]
      anyOf:
        - required: [mass]
        - required: [stiffness]
        - required: [damping]
        - required: [allowsOverdamping]
      properties:
        type:
          const: spring
        mass:
          type: number
          exclusiveMinimum: 0
          default: 1
        stiffness:
          type: number
          exclusiveMinimum: 0
          default: 100
        damping:
          type: number
          minimum: 0
          default: 10
        allowsOverdamping:
          type: boolean
          default: false
        initialVelocity:
          $ref: '#/components/schemas/InitialVelocity'
    AndroidSpring:
      type: object
      title: Android set
      description: '`SpringForce`: mass 1, damping 2ζ√k, true over-damping.'
      additionalProperties: false
      required: [type, stiffness, dampingRatio]
      properties:
        type:
          const: spring
        stiffness:
          type: number
          exclusiveMinimum: 0
        dampingRatio:
          type: number
          minimum: 0
        initialVelocity:
          $ref: '#/components/schemas/InitialVelocity'
    ResponseSpring:
      type: object
      title: Response set
      description: |
        Designing Fluid Interfaces / SwiftUI `Spring(response:dampingRatio:)`: mass 1,
        stiffness (2π/response)², damping 4πζ/response; over-damping allowed.
      additionalProperties: false
      required: [type, response, dampingRatio]
      properties:
        type:
          const: spring
        response:
          type: number
          exclusiveMinimum: 0
        dampingRatio:
          type: number
          minimum: 0
        initialVelocity:
          $ref: '#/components/schemas/InitialVelocity'
    PerceptualSpring:
      type: object
      title: Perceptual set
      description: |
        SwiftUI `Spring(duration:bounce:)`: ζ = 1 − bounce for 0 ≤ bounce ≤ 1, 0 (undamped) beyond 1,
        1/(1 + bounce) below 0; then as the response set with `perceptualDuration`.
      additionalProperties: false
      required: [type, perceptualDuration]
      properties:
        type:
          const: spring
        perceptualDuration:
          type: number
          exclusiveMinimum: 0
        bounce:
          type: number
          exclusiveMinimum: -1
          default: 0
        initialVelocity:
          $ref: '#/components/schemas/InitialVelocity'
    POPSpring:
      type: object
      title: POP set
      description: |
        `POPSpringAnimation` `springBounciness` and `springSpeed`, converted to Origami tension and
        friction as POP and rebound-js do.
      additionalProperties: false
      required: [type]
      anyOf:
        - required: [bounciness]
        - required: [speed]
      properties:
        type:
          const: spring
        bounciness:
          type: number
          minimum: 0
          default: 4
        speed:
          type: number
          minimum: 0
          default: 12
        initialVelocity:
          $ref: '#/components/schemas/InitialVelocity'
    OrigamiSpring:
      type: object
      title: Origami set
      description: |
        Origami units, as Rebound's `fromOrigamiTensionAndFriction`: mass 1,
        stiffness (tension − 30)·3.62 + 194, damping (friction − 8)·3 + 25, true over-damping.
        The derived stiffness must be > 0 and damping ≥ 0 (tension > about −23.59, friction ≥ −1/3).
      additionalProperties: false
      required: [type]
      anyOf:
        - required: [tension]
        - required: [friction]
      properties:
        type:
          const: spring
        tension:
          type: number
          default: 40
        friction:
          type: number
          default: 7
        initialVelocity:
          $ref: '#/components/schemas/InitialVelocity'
    CurveResponse:
      type: object
      description: |
        The sampled curve. `t`, `progress` and `velocity` have one entry per sample, in sample
        order. `spring` is present exactly when `timing` is a spring. Numbers are finite, in
        shortest round-trip form.
      additionalProperties: false
      required: [timing, duration, settlingDuration, t, progress, velocity, warnings]
      properties:
        timing:
          $ref: '#/components/schemas/NormalisedTiming'
        duration:
          type: number
          description: |
            The sampling window: the request's `duration`, else 1 (non-spring), the settling
            duration (spring), or the latest `at` time (undamped spring with `at`).
        settlingDuration:
          type: [number, 'null']
          description: |
            UIKit spring: its `duration`. Other springs: the Core Animation settling duration,
            null when infinite (damping 0). Non-spring curves: null.
        t:
          type: array
          items: {type: number}
        progress:
          type: array
          description: Progress at each time (0 → 1; may overshoot).
          items: {type: number}
        velocity:
          type: array
          description: |
            Right-hand d(progress)/dt in 1/s; ±1.7976931348623157e308 where a Bézier slope is
            infinite; 0 on steps and held plateaus.
          items: {type: number}
        spring:
          $ref: '#/components/schemas/SpringSummary'
        warnings:
          type: array
          description: Always present; UIKit's clamps of `dampingRatio` and `duration` are the only warnings here.
          items:
            $ref: '#/components/schemas/Warning'
    NormalisedTiming:
      description: |
        The timing in object form with every default filled in. CSS keywords become their UIKit
        names, `step-start`/`step-end` steps with count 1 and position `start`/`end`, `linear(…)`
        a `piecewiseLinear` with its resolved points.
      oneOf:
        - $ref: '#/components/schemas/NamedTiming'
        - $ref: '#/components/schemas/CubicBezierTiming'
        - allOf:
            - $ref: '#/components/schemas/StepsTiming'
            - required: [position]
        - $ref: '#/components/schemas/PiecewiseLinearTiming'
        - $ref: '#/components/schemas/NormalisedSpring'
    NormalisedSpring:
      description: The given parameter set with its defaults filled in, then `initialVelocity`.
      oneOf:
        - allOf:
            - $ref: '#/components/schemas/UIKitSpring'
            - required: [initialVelocity]
        - allOf:
            - $ref: '#/components/schemas/PhysicalSpring'
            - required: [mass, stiffness, damping, allowsOverdamping, initialVelocity]
        - allOf:
            - $ref: '#/components/schemas/AndroidSpring'
            - required: [initialVelocity]
        - allOf:
            - $ref: '#/components/schemas/ResponseSpring'
            - required: [initialVelocity]
        - allOf:
            - $ref: '#/components/schemas/PerceptualSpring'
            - required: [bounce, initialVelocity]
        - allOf:
            - $ref: '#/components/schemas/POPSpring'
            - required: [bounciness, speed, initialVelocity]
        - allOf:
            - $ref: '#/components/schemas/OrigamiSpring'
            - required: [tension, friction, initialVelocity]
    SpringSummary:
      type: object
      description: |
        The same spring in every parametrisation (API.md §3), so a client can convert between
        them. Values are the ones actually used (damping after any clamp to critical).
      additionalProperties: false
      required: [mass, stiffness, damping, dampingRatio, response, perceptualDuration, bounce, initialVelocity, settlingDuration]
      properties:
        mass: {type: number}
        stiffness: {type: number}
        damping: {type: number}
        dampingRatio:
          type: number
          description: ζ = damping / (2√(mass · stiffness)).
        response:
          type: number
          description: 2π√(mass / stiffness).
        perceptualDuration:
          type: number
          description: Equal to `response` (SwiftUI's `Spring.duration`).
        bounce:
          type: number
          description: 1 − ζ for ζ ≤ 1, 1/ζ − 1 for ζ > 1 (SwiftUI).
        initialVelocity: {type: number}
        settlingDuration:
          type: [number, 'null']
          description: |
            This spring's Core Animation settling duration (`durationForEpsilon: 0.001`), null
            when infinite. For the UIKit set it is the derived spring's, not the animation's
            duration reported at the top level.
    Warning:
      type: object
      additionalProperties: false
      required: [pointer, detail]
      properties:
        pointer:
          type: string
          description: JSON Pointer into the request.
        detail:
          type: string
    Problem:
      type: object
      description: |
        RFC 9457 problem details. Further members may follow (none are emitted by the routes
        here yet).
      required: [type, title, status, detail]
      additionalProperties: true
      properties:
        type:
          type: string
          format: uri
          enum:
            - https://segue.dev/problems/malformed-json
            - https://segue.dev/problems/invalid-utf8
            - https://segue.dev/problems/number-out-of-range
            - https://segue.dev/problems/nesting-too-deep
            - https://segue.dev/problems/wrong-type
            - https://segue.dev/problems/not-found
            - https://segue.dev/problems/method-not-allowed
            - https://segue.dev/problems/not-acceptable
            - https://segue.dev/problems/too-large
            - https://segue.dev/problems/unsupported-media-type
            - https://segue.dev/problems/invalid-request
          description: '`https://segue.dev/problems/<kind>`.'
        title:
          type: string
          description: The status's reason phrase.
          enum: [Bad Request, Not Found, Method Not Allowed, Not Acceptable, Content Too Large, Unsupported Media Type, Unprocessable Content]
        status:
          type: integer
          enum: [400, 404, 405, 406, 413, 415, 422]
        detail:
          type: string
        pointer:
          type: string
          description: |
            RFC 6901 JSON Pointer into the request body, present whenever one part of the request
            is at fault (`""` is the whole body).

"""#
}
