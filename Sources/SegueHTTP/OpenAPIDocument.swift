// Generated from openapi.yaml by scripts/openapi-source.sh; a test keeps the two equal.
enum OpenAPIDocument {
    static let yaml = #"""
openapi: 3.1.0
info:
  title: Segue
  version: 1.0.0
  summary: UIKit and CSS timing curves, springs and view animations, sampled over HTTP.
  description: |
    Segue evaluates the timing curves of UIKit, Core Animation, SwiftUI and CSS — cubic Béziers,
    steps, `linear()` and springs in every common parametrisation — and answers with their samples
    (`POST /v1/curve`). It also renders a transition description — views, their channels and UIView
    block, keyframe and CAKeyframeAnimation animations and physics animations, driven by
    UIViewPropertyAnimator commands, a percent-driven interaction or a transition preset — to a
    frame timeline (`POST /v1/render`), and lists its presets (`GET /v1/presets`).
    The contract (API version 1) is written out, rule by rule, in docs/rules.md; this document
    describes what this build of the service implements and records, in `x-segue-choices`, each
    decision Segue made where the contract is silent.
    Parts of the contract this build does not implement yet are refused as described below: the
    `svg` and `css` formats (406), `GET /metrics` and `GET /` (404, like any path not listed here).

    Conventions (docs/rules.md "Conventions"):
    - JSON in, JSON out, UTF-8. Times in seconds, angles in radians, lengths in points, colours
      `[r, g, b, a]`.
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
      `fps` in [1, 1000], duration ≤ 3600 s (`--max-duration`), ≤ 100 000 samples or frames per
      response (`--max-samples`), ≤ 5 000 000 numbers per response (`--max-numbers`);
      `--cors-origin` / `SEGUE_CORS_ORIGIN` sets `Access-Control-Allow-Origin`. A render takes
      ≤ 1000 views (`--max-views`) and ≤ 10 000 animations and commands together
      (`--max-animations`); over them is a 422. Its physics animations may do at most
      4 000 000 steps of work — rest-test states, Euler ticks and RK4 steps, each per channel
      component (`--max-steps`; paid before the work while resolving, so a refused render costs at most that) — and its frames × animation layers to evaluate (a transform layer counts
      4, all × 4 with `velocities`) at most the numbers limit; over them is a 413.
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
  - "In `/v1/curve` a `duration` given with a spring set other than UIKit's is only the sampling window (the spring keeps moving after it); the rule that such a duration is a 422 (docs/rules.md, Timing curves) concerns animations, not curve sampling."
  - "Spring parameter sets are recognised by their members: `mass`, `damping` or `allowsOverdamping` → physical; `response` → response; `perceptualDuration` or `bounce` → perceptual; `bounciness` or `speed` → POP; `tension` or `friction` → Origami; otherwise `stiffness` + `dampingRatio` → Android, `dampingRatio` alone → UIKit, `stiffness` alone → physical. Members of two sets (for example `response` with `stiffness`, or `mass` with `dampingRatio`) are a 422 naming both sets, with `pointer` at the last such member in request order; no set at all is a 422 listing the sets."
  - "Omitted members of a set take that system's defaults: physical mass 1, stiffness 100, damping 10, allowsOverdamping false (CASpringAnimation); perceptual bounce 0 (SwiftUI); POP bounciness 4, speed 12; Origami tension 40, friction 7 (Rebound). The UIKit, Android and response sets need all of their members. `initialVelocity` defaults to 0."
  - "Spring ranges: mass > 0, stiffness > 0, damping ≥ 0, dampingRatio ≥ 0 (every set), response > 0, perceptualDuration > 0, bounce > −1 (ζ = 1/(1 + bounce) below 0, 1 − bounce up to 1, 0 beyond 1), bounciness ≥ 0, speed ≥ 0; Origami tension and friction take any number, but a POP or Origami set whose derived stiffness is not > 0 or damping not ≥ 0 is a 422. The Android, response and perceptual sets, and POP and Origami, use the true over-damped curve."
  - "The UIKit set accepts dampingRatio 0 and above 1: for its solve UIKit clamps dampingRatio to [FLT_EPSILON, 1] and the duration to [0.01, 10] s, and each clamp adds a warning (pointers `/timing/dampingRatio` and `/duration`)."
  - "The echoed `timing` is the normalised object form with every default filled in: steps always carry `position`, the physical set always carries `allowsOverdamping`, every spring carries `initialVelocity`. CSS keywords become `{\"type\": <UIKit name>}`, `step-start` and `step-end` become steps with count 1 and position `start` / `end`, and `linear(…)` (even `linear(0, 1)`) becomes `piecewiseLinear` with its resolved points."
  - "`piecewiseLinear` points given as objects are repaired as CSS repairs `linear()` stops: each input becomes at least the largest input before it. Inputs and outputs may lie outside [0, 1]."
  - "CSS easing strings: keywords and function names are ASCII case-insensitive (so `easeIn`, `easein`, `EASE-IN` are all accepted), surrounding CSS whitespace is ignored, numbers are CSS `<number>` tokens without units; `calc()` and other nested functions are not supported (422)."
  - "A member whose value is `null` is treated as absent everywhere: it takes its default, does not count for the `at`/`fps`/`samples` exclusion or for recognising a spring's parameter set, and a `null` `timing` is missing (422). An unknown member is a 422 naming the first one in request order; a duplicate member name is a 400 `malformed-json`; a member of the wrong JSON type is a 400 `wrong-type`."
  - "At most one of `at`, `fps`, `samples`; a second one is a 422 pointing at it (checked in that order). `samples` must be integral (`10.0` is accepted). `samples` or `at` over the samples limit, an `fps` grid with more frames than the limit, or more than the numbers limit (3 per sample) is a 413."
  - "A time at which the curve has no finite progress (for example a Bézier extrapolated to a huge `at`) is a 422 whose pointer names that `at` element. Where a slope is infinite, `velocity` is ±1.7976931348623157e308 (rule 4)."
  - "`velocity` is the right-hand derivative d(progress)/dt in 1/s: 0 on steps, on vertical `linear()` segments, for springs before t = 0 and for the UIKit spring from its duration on."
  - "Numbers: integral values with magnitude below 2^63 print as integers; all others use Swift's shortest round-trip text, which may use an exponent (`1e-05`, `1.7976931348623157e+308`). CSV uses the same number text."
  - "Curve CSV: media type `text/csv; charset=utf-8`, header `t,progress,velocity`, one row per sample in request order, every line (the last included) ended by LF, no quoting, no `spring` or `warnings` data."
  - "Format negotiation: `?format=` is case-insensitive and wins over `Accept`; an unknown value or one this route does not produce (`svg`, `css` for now, on `/v1/curve` and `/v1/render`) is 406, decided before the body is read. `Accept` is ranked by q-value, a type taking the quality of its most specific matching range; equal qualities prefer JSON; a blank or absent `Accept` gives JSON; `q=0` excludes. `/healthz`, `/openapi.yaml` and `/v1/presets` ignore `format` and `Accept`."
  - "Response cache: a successful, non-streamed answer is kept (at most 4096 entries and 64 MiB of request and response bodies by default, oldest evicted first; `--cache-entries 0` turns it off) and an identical request — same path, body, `Content-Type`, `?format=`, `?expand=`, `Accept` and gzip choice — gets the same bytes and `ETag` again without being recomputed. Every answer is a pure function of the request, so the cache is invisible to clients."
  - "gzip: `Accept-Encoding` admitting `gzip` (or `x-gzip`, or `*`, with q > 0) gives `Content-Encoding: gzip` on tagged bodies above 1024 bytes (`/v1/curve`, `/v1/render`, `/v1/presets`, `/openapi.yaml`); smaller bodies, `/healthz`, problem documents and streamed render bodies (estimated above 1 MiB, sent chunked) go out uncompressed. The compressor is Segue's own (LZ77 + dynamic Huffman, MTIME 0), so the same request gives the same gzip bytes."
  - "ETag: a strong tag of 16 hex digits, a 64-bit hash of the media type, the content coding and the body, so the JSON, CSV and gzip forms of one response have different tags (a streamed render's tag is the identity-coded one, the same as for the buffered identity body). `If-None-Match` matches `*` or any listed tag, `W/` prefixes ignored (weak comparison). A 304 carries `ETag`, `Vary` and the CORS headers and no `Content-Type` or body. `Vary: Accept, Accept-Encoding` is sent with every tagged response."
  - "`/healthz` is never cached: `Cache-Control: no-store`, no `ETag`, `If-None-Match` ignored."
  - "Preflight: `OPTIONS` on any listed path answers 204 whatever the `Origin` and `Access-Control-Request-*` headers, with `Allow` and `Access-Control-Allow-Methods` both listing the path's methods plus HEAD (for GET paths) and OPTIONS. `OPTIONS` on an unlisted path is 404."
  - "Paths match exactly: no trailing-slash or case folding (`/v1/curve/` is 404)."
  - "Problem documents: members in the order `type`, `title`, `status`, `detail`, `pointer`; `title` is the status's reason phrase; `pointer` is present whenever one part of the request is at fault (`\"\"` for the whole body, for example an empty body or a syntax error at the top level) and absent for 404, 405, 406, 415, the 400 `invalid-query`, the body-size and numbers-limit 413s and a render's frames-limit 413 on the default 60 fps grid (it points at `/fps` or `/at` when one of them was given)."
  - "A declared `Content-Length` over the body limit is answered 413 before the body is read, on every path and method; a chunked body that grows past the limit is discarded and answered 413."
  - "Animator state machine (docs/rules.md rules 8, 13–17; every block animation has one), each rule with the UIKit documentation it rests on. (a) States `inactive`, `running` (UIKit's `active` and running), `paused` (`active`, not running) and `stopped`, each accepting the ops of rule 13's table: `finishAnimation(at:)` — \"The animator must be in the UIViewAnimatingState.stopped state\"; `stopAnimation(_:)` on an inactive animator is a programmer error; `continueAnimation(withTimingParameters:durationFactor:)` is \"only valid while paused\" (UIViewImplicitlyAnimating); `start` while running and `pause` while paused change nothing. (b) Running, the time fraction f changes at ±1/duration and progress is timing(f), so reversing retraces the curve — `isReversed`: \"the animator runs … in the reverse direction, returning the animations to their initial state\". (c) Scrubbed while paused (`fraction`, an interaction's percent), progress is f with `scrubsLinearly` — \"the animator uses linear interpolation … while scrubbing\" — else timing(f); a `pause` itself keeps the presented value timing(f) (no jump on pausing, as on a device); on resume after a linear scrub the value continues from timing(f) and the jump is reported as a warning. (d) `continue` \"uses the new timing parameters to finish\" from the presented values; without timing the own curve resumes at f at speed 1/durationFactor. (e) `addAnimations(_:delayFactor:)`: \"the delay factor … multiplied by the remaining duration\"; the block ends with the animator. (f) `stop` with `withoutFinishing: true`: \"the animator moves to the inactive state\", values left where they are, no completion; with false it waits in `stopped` for `finish`. `pausesOnCompletion`: \"the animator … does not transition to the inactive state\" — reaching the end (or, reversed, the start) is a `pause`. (g) A start delay: running at fraction 0, contributing nothing; `pause` freezes what is left of it; `fraction`, `stop`, `reverse` and `finish` (and `continue`) cancel it. (h) At one instant: commands in order, then completions, then interaction releases."
  - "Commands (docs/rules.md \"Commands\", rule 13): each is `{\"at\", \"animation\", \"op\"}` plus that op's members (see the `Command` schema); any other member, another op's included, is a 422 at it. `animations` and `commands` together are at most 10 000 (`--max-animations`; 422 at `/commands`, or at `/animations` when there are no commands). `at` is in [0, 3600] (422 at `/commands/i/at`); `animation` must be an animation's id (422 at `/commands/i/animation`); an unknown `op` is a 422 at `/commands/i/op`. Commands are stably sorted by `at` (ties in array order) and every command is decoded before any is replayed. A command the animator's state does not accept is a 422 of kind `illegal-command` at `/commands/i` (i its index in the request array) with members `state` (the state the command met) and `allowed` (every op accepted there without error, no-ops included); when several are illegal, the first one in time of the first block animation in array order that has one is reported, and a block op on a physics animation only when no block animator fails (the earliest in time). `retarget` and `drag` on a block animation are `illegal-command` with that animator's state and rule 13's list; a block op (`start`, `pause`, `finish`, `reverse`, `fraction`, `continue`, `addAnimations`) on a physics animation is `illegal-command` naming the state the physics animator was in just before the command — `running` (moving or dragged) or `inactive` — with `allowed` `[\"retarget\", \"drag\", \"stop\"]` (that op's own members, such as `delay`, are unknown members there: a 422 at the member first). On a physics animation `stop` with `withoutFinishing: false` is a 422 at `/commands/i/withoutFinishing`, and `retarget` on a decay a 422 at `/commands/i/op`."
  - "Command defaults and no-ops: `start` `delay` 0 (≥ 0, ≤ 3600); `stop` `withoutFinishing` true; `finish` `position` `end`; `reverse` `reversed` true; `continue` `durationFactor` 1 (> 0, and durationFactor × the animation's active duration ≤ 3600); `addAnimations` `delayFactor` 0 (in [0, 1]); `fraction` `value` is required, in [0, 1]. `start` while running, `pause` while paused and a `reverse` to the direction the animator already has are no-ops: accepted, no event. `pause` or `fraction` on an inactive animator and `fraction` on a running one emit `pause` with the command's index; `fraction` on a paused animator emits nothing. `finish` completes at once (event `completion` with its `position`; `current` keeps the presented values) and leaves the animator `inactive`."
  - "Events and `command`: an event a command causes carries its index in `commands` — a `finish`'s `completion` included, and both the `start` and the `retarget` of a physics restart; a physics `release` carries its `drag`'s index. Natural completions, the `pause` that `pausesOnCompletion` puts in place of a completion (also when a reversed run reaches the start), an autostart's `start`, the interaction's initial `pause` and its `interactionFinish` / `interactionCancel` carry none."
  - "Start delays (docs/rules.md rule 8): an autostart emits `start` at t = 0 (the autostart time); during the animation's `delay` the animator is `running` at fraction 0 and the animation contributes nothing to its channels (its effective start, rule 9, is the delay's end). A `start` command's `delay` works the same way from the command's `at` (an animator that already shows values — paused, scrubbed — keeps showing them and its fraction during the delay). `pause` during a delay freezes the rest of it and a later `start` waits that rest plus its own `delay`; `fraction`, `stop`, `reverse`, `finish` and `continue` cancel it (a `reverse` during the delay sets the animator moving at once, so reversed at fraction 0 it completes at the start at once). A physics animation does the same: `start` at the autostart, `running` (still) through its `delay`."
  - "A run ends when the animator returns to `inactive` — a completion, a `finish`, or `stop` with `withoutFinishing: true` — and its animations are done, as UIKit removes an animator's animations then: they hold what they showed at that instant from then on, whatever the animator does next. A `start`, `pause`, `fraction` or `addAnimations` on such an animator opens a new run at fraction 0 (the per-frame `fraction` reads 0 from then); only blocks added since take part in it, from their window as the addAnimations choice says. A new run with no blocks completes like any other (a `start` then a `completion` after the duration). The animation's own `delay` is not applied again."
  - "Resuming after a linear scrub (rule 14): when a paused animator with `scrubsLinearly` (the default) is set moving along its own curve again — `start`, or `continue` without `timing` — at a fraction strictly between 0 and 1 whose linear progress differs from timing(f), the value jumps to the curve and a warning names both progresses and the time. Its pointer is `/commands/i` of the resuming command (also when the resume happens at the end of that `start` command's `delay`). A `continue` with `timing` and an interaction release glide from the presented value instead: no jump."
  - "`continue` (rule 15; accepted only while paused; event `continue`, state `running`): without `timing` the animator's own curve resumes at f at speed 1/`durationFactor`, and that speed stays for later resumes until the next `continue`. With `timing` the animator is handed over to that curve: progress runs from the presented value to the end (the start when reversed) along it, with no blending with the old curve, and the reported `fraction` runs linearly in time from f to 1 (or 0) over the window — (1 − f)·duration·durationFactor (f·duration·durationFactor reversed) for a non-spring curve and for UIKit's `dampingRatio` spring, which takes the window as its duration; the settling duration for every other spring set, which ignores the factor. A plain `pause` then `start` resumes that same glide where it stopped; a `reverse`, or a `fraction` scrub and then a resume, starts a new glide along the handed-over curve from the presented value over the remaining fraction (× duration × durationFactor, or the settling duration). The UIKit spring's `initialVelocity`, when not given, is the current d(progress)/dt divided by the remaining distance: 0 at the `continue` itself, because `continue` is accepted only while paused; at a later reverse of the glide, the glide's own velocity. A spring that never settles (damping 0) in `continue` without `until` is a 422 at `/commands/i/timing`."
  - "`addAnimations` (rule 16): `to` is a non-empty map of channels of the animation's view, read as an animation's `to` (rotations along the shorter arc). At the animator's fraction f (f = 0 on an inactive animator) the block's window starts when the animator's fraction first reaches f + delayFactor·(1 − f) — for an animator running forward at speed 1, delayFactor·(1 − f)·duration later. On an animator that is not moving (inactive, paused, stopped, in a start delay) the window is placed when it next moves (a start, a `continue`, an interaction release), from the fraction f it moves from (rule 16: the window begins when it resumes; a scrub in between changes f, not how far along the block is) — and ends with the animator. While the animator is scrubbed linearly (`scrubsLinearly`), a block shows its window linearly too (rule 14); a `pause` holds it where it was; in a glide (`continue` with timing, an interaction release) a block whose window had begun glides from what it showed to its end (the start, when cancelled) along the glide's curve, as the animation does (rule 15), and a block whose window begins during the glide follows the animation's curve over its window. The block animates from the channel's presented value at its window start (with `blend: \"additive\"`, the animation's blend, from the model value) to `to`; its progress is the animation's own timing curve over that window of the fraction, so pausing, scrubbing or reversing the animator moves it too, and when the animator completes the block shows `to` (at the end) or its start value (at the start) — a block added to an animator whose run ended joins the next run (see the runs choice). Blocks are layers of their own on their channels, ordered by window start (ties after the animation's own layer, then in command order). Event `addAnimations` with the command's index. An animation that repeats forever has no fraction: `fraction`, `addAnimations` and `continue` with `timing` on it are a 422 at `/commands/i/op`."
  - "A decay's `velocity` (with `velocities: true`) is the derivative of POP's position formula, v0·d^(1000t)·d·ln(1/d)/(1 − d) (rule 4: the derivative of the value); POP's own velocity v0·d^(1000t) differs by that last factor (0.1 % at d = 0.998). Its stopping time reads v0 and d as rule 21 says."
  - "Bounds on what commands can ask for (each a 422 naming the member, before any work): `durationFactor` ≥ 1e-6; a `continue` spring other than UIKit's must settle within the 3600 s limit (or be undamped, which then needs `until`) and move finitely (422 at `/commands/i/timing`); without `until`, every animator must settle within 3600 s of the start of the timeline, however its commands delay or slow it (422 at its last command, else at the animation). An interaction's steps × driven animations are at most 10 × the samples limit (1 000 000; 413 at `/interaction`)."
  - "Interaction and commands on one animator: an interaction step that pauses a running animator (one a command started) emits `pause` without `command`; once the animator has been `stopped` or its run has ended (a `finish`, a completion, `stop`), the interaction no longer drives it, for good (also after a new run opens): later updates and the release are ignored."
  - "Events at one instant (rules 1, 18): first the initial state (an autostart's `start`, an interaction's `pause` at 0), then the events commands caused, in command order (array order at equal `at`), then completions (and the `pause` of `pausesOnCompletion`), then releases — an interaction's `interactionFinish`/`interactionCancel` and a drag's `release`; one animator's events at one instant keep the order in which they took effect (a restart's `start` before its immediate `completion`, a physics restart's `start` before its `retarget`, a `retarget` at a drag's last sample before that drag's `release`); remaining ties go by animation index."
  - "Interaction (docs/rules.md \"Interaction\", rule 19): `animations` is a non-empty list of distinct ids of block animations (an unknown id, a repeat, a physics animation or an animation that repeats forever is a 422 at the element). The listed animators are `paused` at fraction 0 from t = 0, with a `pause` event at 0 without `command`; their `autostart` and `delay` are ignored. Percent is 0 before the first update or sample and then holds the latest one at or before t; each step sets the fraction without an event (a linear scrub by default, `scrubsLinearly`). Either `updates` (`{\"at\", \"percent\"}`, percent in [0, 1], times non-decreasing in [0, 3600]) with an optional `end` (`{\"at\", \"action\"}`, `at` not before the last update, `action` `finish` (default) or `cancel`) — without `end` the animators stay paused —, or a `gesture` (with `updates` or `end` a 422 at `/interaction/gesture`): `pan` (`distance` > 0 required, `threshold` in [0, 1] default 0.5, `samples` `[[t, translation], …]`, translation within ±1e15): percent translation / distance clamped to [0, 1], finishing only when the last percent is strictly above the threshold; `pinch` (`samples` `[[t, scale, velocity], …]`, the first scale > 0, scales in [0, 1e15]): percent 1 − scale / first scale clamped to [0, 1], cancelling when the last |velocity| < 5 and the last percent ≤ 0.3, else finishing. Gesture samples: non-empty, at most 100 000, times non-decreasing in [0, 3600]; the release is at the last sample's time, after its update. The release emits `interactionFinish` or `interactionCancel` (no `command`, no `reverse` event), sets the animators `running` (a cancel with `reversed` true) and glides from the presented value to the end (a cancel: the start) along `completionCurve` (any non-spring timing, default `easeInOut`; a spring is a 422) in (1 − p)·active duration / `completionSpeed` (a cancel: p·…), then completes (`position` `end` or `start`). `completionSpeed` > 0, default 1, with the longest listed active duration / completionSpeed ≤ 3600. Interaction steps at the same instant as commands come after them; they are never refused, while commands on the listed animations follow rule 13 from their paused start."
  - "Physics commands (docs/rules.md \"Commands\", rules 20–22; what the contract leaves open). `retarget`: `to` is the new target of the animation's channel, a value of its shape or a one-entry map naming it; `velocity` (the channel's shape, units per second) replaces the velocity when given. While moving, the motion continues from its exact state at `at` (position and velocity continuous) toward the new target on the same time grid: `exact` keeps its rest test on start + n ms, tested from `at` on; `euler` and `rk4` keep their ticks anchored at the start (a tick at `at` already pulls toward the new target) and `rk4` keeps POP's solver clock, the leftover time not yet stepped, as a running display-link animation whose `toValue` changes. While settled or stopped it restarts from rest at the value held (velocity 0 unless given; before the first start, the animation's `velocity`) with events `start` then `retarget`, both with the command's index; tick integrators then anchor a new grid at `at` (a new POP animation, whose first frame advances 0), while the exact grid stays anchored at the animation's effective start. During a drag it only changes the target used after the release; a `retarget` at the release instant counts as during the drag (commands come before releases). During an autostart's delay it only changes the target (and velocity) the motion will start with (a `retarget` event, no `start`). `drag`, in any state: at `at` the channel jumps to the first sample's value (`grab`) and forces are suspended; until the first sample's time the value is that sample (velocity 0), then the samples' linear interpolation (velocity the segment's slope); at the last sample (`release`) forces resume from it with the release velocity toward the current target (a decay decays from there), tick integrators re-anchoring their grid there. A drag on a settled, stopped or never-started animation starts it with no `start` event; during an autostart's delay it starts the animation at once (the finger takes the channel), and the autostart then has no `start` event of its own — the animator is `inactive` until the `grab`; a drag during a drag takes over without a `release`. `stop`: the value stays where it is (velocity 0), `inactive`, event `stop` with `withoutFinishing: true`, no completion; during a drag the remaining samples are dropped (no `release`); during an autostart's delay it cancels the start. Coming to rest emits `completion` (`position: \"end\"`) at the rest time; from then on the channel shows the target exactly (a decay: its end point). The model value after a physics animation (the m of a later `additive` animation) is its final target, a decay's the point where it stopped. Nothing after the horizon — `until`, else 60 s after the animation's autostart or its last command, whichever is later (within the 3600 s limit): a motion still moving then needs `until` (422 at `/animations/i/dynamics`) — is simulated: commands, releases and rests after it happen not at all and have no events."
  - "`drag` samples (rule 22): a non-empty array of at most 100 000 entries `[t, value…]`, with as many values as the channel has components; t absolute, ≥ the command's `at`, ≤ 3600 and strictly increasing (422 at `/commands/i/samples/k/0`); values follow the channel's ranges (`alpha` in [0, 1], `cornerRadius` ≥ 0, every number within ±1e15; 422 at `/commands/i/samples/k/1`). The release velocity, per component: the least-squares slope of the samples with t ≥ t_last − 0.1 (inclusive, with 1e-9 s of slack for decimal times) when there are three or more of them, else the slope of the last segment, even when it starts before that window; a single sample releases at rest."
  - "Presets (`transition`, docs/rules.md \"Presets\", rule 25): `{\"preset\": NAME, \"container\": [x, y, w, h], …parameters}` with NAME one of `bouncePresent`, `slideDismiss`, `zoomPush`, `zoomPop`, `dropDismiss`, `crossDissolve`, `swipeUpDismiss`, `pane`; `container` is required, its w and h > 0 and every number within ±2.5e14 (a quarter of the channel bound, so every position a preset computes stays in range). The preset is expanded before anything else is decoded, into `views`, `animations` and, where the preset needs them, `commands` and `interaction`, in `transition`'s place; every other top-level member (`fps`, `until`, `at`, `velocities`, …) passes through unchanged and in order, and the result is rendered as any request. A request with `transition` may not also give `views`, `animations`, `commands` or `interaction` (422 at that member; a `null` one is dropped). A missing or unknown `preset` is a 422 at `/transition/preset`, an unknown parameter a 422 at `/transition/<name>`, a bad parameter value a 422 (a wrong JSON type a 400) at `/transition/<name>` or inside it; a `null` parameter takes its default; `\"transition\": null` is absent. `GET /v1/presets` documents each expansion exactly and lists every parameter with its default (`null` there: computed from the container or other parameters, as its description says)."
  - "`?expand=true` on `POST /v1/render` adds `expanded` after `warnings`: the request as rendered — after a preset's expansion, else the request itself (re-serialised: members in request order, numbers in shortest form). The query value is exactly `true` or `false` (absent: false); any other value, or `expand=true` when the response is not JSON (`?format=csv` or an `Accept` that selects CSV), is a 400 of kind `invalid-query` without `pointer`, decided after format negotiation (406 first) and before the body is read."
  - "Physics animations (`dynamics`, docs/rules.md \"Physics animations\", rules 20–21): one channel — a custom channel (number or array), `center`, `alpha` or `cornerRadius` (any other is a 422) — named by `to` (exactly one entry: the target) or, for a decay, by `channel` (a decay with `to` is a 422). `velocity` is absolute, channel units per second, shaped as the channel (default 0). Models: `spring` (mass 1, stiffness 100, damping 10; the true over-damped solution), `attachment` (`frequency` Hz required, `damping` ratio default 0: k = (2πf)², c = 2ζ·2πf per unit mass), `snap` (an attachment at 3 Hz, `damping` default 0.5), `popSpring` (bounciness 4, speed 12, POP's conversion), `decay` (`deceleration` per ms, default 0.998, in (0, 1); POP's position formula). `integrator`: `exact` (closed form; rest tested on the grid start + n ms), `euler` (semi-implicit, objc.io) or `rk4` (POP's 1 ms RK4 steps with its leftover interpolation), both at `tickRate` Hz (default 60, in (0, 1000]) with the initial state at the start and rest tested after each tick. Rest: |x − target| < `restDistance` and |v| < `restSpeed` (Euclidean), defaults threshold/2 and 5·threshold (euler: 1 and 0.05); `threshold` defaults to 0.01 for `alpha`, else 1. A decay ends at ln(5·threshold/|v0|)/(1000·ln d) (0 when negative) and holds x there. At rest the channel shows the target exactly and the animator completes (event `completion` at the exact rest time); `animators.<id>.fraction` is null. Not applicable with `dynamics` (422): `duration`, `timing`, `keyframes`, `values`, `repeatCount`, `autoreverses`, `calculationMode`, `rotationPath`, `blend` other than replace. Without `until`, a motion must rest within 60 s of its start or its animation's last command (else a 422 asks for `until`); all physics work of a render is bounded by `--max-steps` (413). `velocities: true` reports the motion's own velocity (the closed form's, or the last tick's; a decay's is the derivative of its position; 0 at rest)."
  - "Render decoding order (the first fault wins): a `transition` preset's expansion (a member it clashes with, `preset`, unknown parameters, `container`, then each parameter as the preset reads it); the types of `velocities`, `at`, `fps`, `until`; `at` with `fps` or `until` (422 at `/fps`, else `/until`); `fps` in [1, 1000]; `until` in [0, 3600]; `views` (required, ≤ 1000, each view in request order); the types of `animations` and `commands` and their count together (≤ 10 000); unknown top-level members; each animation in array order, an animation whose id repeats an earlier one failing right after it is read (422 at its `/id`); each command in array order; `interaction`; the replay of each block animator's commands (illegal commands), animation by animation; the channels' tracks; block ops on physics animations; an unbounded end; the `at` times; the frames and numbers limits."
  - "Render timeline: `end` is `until` when given, else the latest of every command's `at` and the time each animator settles — enters a state it then keeps (completed, paused, stopped or inactive; `pausesOnCompletion`: the time it pauses; an animator that never starts counts 0; a physics animation: its last rest or stop, or its start if it never moves). With no animations and no commands, or none that start, `end` is 0 and the response has one frame at t = 0. An animator that never settles — an infinite repeat running, an undamped spring, a glide along a `continue` spring that never settles, a motion that does not rest within the duration limit — needs `until` (422 naming the cause, at its `repeatCount`, `timing` or `dynamics`, or at `/commands/i/timing`). Frames are `i / fps` for `i = 0 … ceil(end · fps − 1e-9)`, `fps` default 60 and any real number in [1, 1000]. The response's `duration` is `end`, also with `at`."
  - "Render `at`: a non-empty (422) array of numbers (400 for another type), non-decreasing (equal times allowed; a decrease is a 422 at that element), each in [0, 3600] (the duration limit, not `end`: times after `end` show the held values); over the frames limit it is a 413 at `/at`. It excludes `fps` and `until` (422), and the response has `fps: null`. Because `at` excludes `until`, an animation that never ends (`repeatCount: \"infinite\"`, an undamped spring) cannot be rendered with `at`: it is the 422 naming the cause, pointing at `repeatCount` or `timing`."
  - "Render limits: frames > 100 000 is a 413 (pointer `/at`, `/fps`, or none on the default grid); frames × (1 + Σ channel components × (2 with `velocities`, else 1) + 3 × animators) > 5 000 000 numbers is a 413 without pointer, where a channel's components are 1 for scalars, the array length for arrays and 6 for transforms, and each animator counts `fraction`, `state` and `reversed`. More than 1000 views (422 at `/views`) or 10 000 animations and commands together (422 at `/commands`, or at `/animations` without commands) is refused before any animation is read; both limits are set at start-up (`--max-views`, `--max-animations`)."
  - "Every animation ends within the duration limit: `delay` + its active duration (`duration` or a spring's settling duration, × 2 with `autoreverses`, × `repeatCount`) ≤ 3600 s, else a 422 at `repeatCount` (when it repeats or reverses), `timing` (a spring without `duration`) or `duration`. An unbounded animation needs `until` (≤ 3600)."
  - "Views: `views` is an object (400 otherwise) of view objects; member order is kept. Built-in channels: `frame` and `bounds` (4 numbers), `center` (2), `backgroundColor` (4), `alpha` and `cornerRadius` (a number), `transform`. Any other name is a custom channel whose shape is fixed by the view: a number, or an array of 1 to 64 numbers (an empty or longer array is a 422, another JSON type a 400). Ranges (422, pointing at the number): `alpha` and `backgroundColor` components in [0, 1] (docs/rules.md \"Conventions\"), `cornerRadius` ≥ 0, and every channel number, custom ones and matrix entries included, within ±1e15 — so no interpolation or overshoot between two values can overflow. Frame sizes may be negative, as UIKit allows. A view gives `frame` or `center`/`bounds`, never both (422 at `center`, else `bounds`). A `null` channel is absent."
  - "Channel shapes: a scalar channel takes and reports a number per frame, an array channel an array, a transform a matrix `[a, b, c, d, tx, ty]`; a target of the other shape is a 400 `wrong-type` (so a custom `\"x\": 0` cannot be animated to `[1]`), an array of another length a 422."
  - "Reported channels, per view in request order: the channels the view gave, in the view's order, then the built-in channels an animation of that view, or an `addAnimations` block on one, targets without the view giving them, in order of first targeting (animations in array order, channels in `to`, keyframe or `channel` order, then the blocks in command time order) — also when that animation does not start (`autostart: false`). They start at their defaults: `alpha` 1, `cornerRadius` 0, `backgroundColor` [0, 0, 0, 0] and `transform` the identity given as components (translation [0, 0], scale [1, 1], rotation 0), so a default transform animated to components with a zero scale interpolates its components. Geometry (`frame`, `center`, `bounds`) and custom channels have no default: targeting one the view did not give is a 422 at the target. A view with no channels does not appear in `views`."
  - "Transform input: exactly one form per object — components (`translation`, `scale`, `rotation`; `{}` is the identity), `matrix` (6 numbers), or `ops` (each op an object with exactly one of `translate`, `rotate`, `scale`); mixing forms is a 422 at `matrix` or `ops`. `ops` are composed into a matrix at once and count as a matrix everywhere after (singular ends, decomposition), except that `rotationPath: direct` uses the sum of their `rotate` angles."
  - "Transform interpolation: both ends decomposed by the CSS 2-D unmatrix (components are first converted to a matrix), CSS flip rule, shortest arc (2π added to the smaller angle when the difference is strictly over π), each component linear. A singular end (determinant exactly 0): when both ends were given as components (or the default), the components as given are interpolated linearly, without shortest-arc adjustment; otherwise the value is discrete (`from` below progress 0.5, `to` from 0.5) and a warning at `/animations/i/to/transform` names the singular end(s) (`from`, `to`, `both`)."
  - "`rotationPath` (default `shortest`) is read only by `to` animations; keyframes and `values` always take the shortest arc per segment. With `direct`, components interpolate θ as given (0 → 2π turns once); a `matrix` end uses its unmatrix with any reflection moved to the y axis and θ = atan2(b, a); an `ops` end uses the sum of its `rotate` angles, as whole turns added to atan2(b, a) of the composed matrix so the matrix itself is unchanged (`{\"ops\": [{\"rotate\": 6.283185307179586}]}` turns once)."
  - "Animation forms: exactly one of `to` (a non-empty object of channel values), `keyframes` (a non-empty array) and `values` (with `channel`); none or several is a 422 (pointing at the second one given, or at `to`). `keyTimes`, `timingFunctions`, `tensionValues`, `continuityValues`, `biasValues` and `channel` belong to `values` (elsewhere they are unknown members, 422); `calculationMode` to `keyframes` and `values` (with `to` a 422). `id` defaults to `a<index>`; a default id that equals a given one is a duplicate (422 at the later `id`)."
  - "Animation timing: `timing` (the curve's `Timing`) defaults to `easeInOut` for `to` and `keyframes` (UIKit's default curve) and to `linear` for `values` (CAKeyframeAnimation's default, rule 11). `duration` must be > 0 and ≤ 3600, and is required except with a spring; the UIKit set (`dampingRatio` alone) requires it; every other spring set refuses it (422 at `duration`) and runs for its settling duration, then shows `to` exactly. A spring drives only `to` animations (422 at `timing` for keyframes and `values`). UIKit's clamps of the spring add warnings at `/animations/i/timing/dampingRatio` and, for the duration, at `/animations/i/duration`."
  - "`delay` ≥ 0 and ≤ 3600, default 0. An autostarted animator starts at t = 0 (a `start` event at 0, state `running`) and its delay passes at fraction 0 with no effect on the channels (see the start delays choice; physics animations too)."
  - "`repeatCount`: a number ≥ 0 (default 1; 0 plays once, as Core Animation; a fraction ends part-way through a pass, after which the channel shows `to`) or the string `infinite`, which needs `until`; another string is a 422, another JSON type a 400 `wrong-type`. With `autoreverses` one repeat is a pass forward then back (2 · `duration`); after the active duration the channel shows `to` exactly."
  - "Blending per channel: animations ordered by effective start — when their animator first shows them: at the end of a start delay, or at the first command or interaction step that sets the animator at a fraction (`start` without delay, `pause`, `fraction`, `finish`, `continue`, a `reverse` during a delay, an interaction's pause at 0); a physics animation at its effective start (the end of its autostart's delay, or an earlier `drag`; without an autostart, or after a `stop` cancelled it, its first `retarget` or `drag`); an `addAnimations` block at its window start — ties by array index, then block. An animation that never shows does not take part. The latest `replace` animation that has started owns the channel and starts from the value the channel presented at its effective start (earlier animations stop contributing; their animators still run and complete); every `additive` animation started after it adds its own value minus its model value m, where it runs from m to its target and m is the target of the animation just before it in that order, else the view's value. Vectors add per component; transforms add decomposed components (scales multiply by the ratio), and a result that is not finite is a 422."
  - "UIView keyframes are grouped per channel, in order of first naming; for each channel the keyframes that name it form one CAKeyframeAnimation (docs/keyframes.md \"UIView keyframe blocks\"): the first key is the channel's presented value at the effective start (for `additive`, its model value), a keyframe starting after the previous one's end first holds, a keyframe starting before the previous one (of that channel) ends is delayed to that end and keeps its duration, key times are clipped to 1, and the last value holds to 1. `start` and `duration` must be in [0, 1] with `start + duration` ≤ 1 (1e-12 slack; 422 at `duration`); `to` is a non-empty object. `calculationMode` applies to each channel's track; `timing` maps the whole keyframe time first, except in the paced modes."
  - "`values` animations: `channel` names a channel the view gave, or a built-in channel with a default; at least one value (one value is held for the whole duration); `values[0]` is the start, whatever the channel showed before. `timingFunctions` are Béziers only (named timings or `cubicBezier`, as objects or CSS strings; steps, `linear()` and springs are a 422 at the element). `keyTimes` and the TCB arrays are numbers; their structure is never a 422."
  - "Keyframe modes (docs/keyframes.md \"Calculation modes\"): `linear` (default) segments with an optional Bézier per segment; `discrete` shows the value of the last key time ≤ t (`keyTimes` may have n or n + 1 entries); `paced` uses key times proportional to Euclidean distance; `cubic` is a Kochanek–Bartels Hermite spline (`tensionValues`, `continuityValues`, `biasValues`, default 0 = Catmull-Rom) with reflected end points and tangents not rescaled for unequal intervals; `cubicPaced` runs that spline at constant speed, its arc length computed exactly (to rounding): each segment is split where a component of the spline's derivative changes sign, and each piece, within a table of 24 steps per segment, takes 8-point Gauss–Legendre quadrature (exact in one dimension); the length is inverted by Newton's method inside a bisection bracket, so a symmetric path is symmetric in time. Paced modes ignore `keyTimes`, `timingFunctions` and the animation's `timing`, without a warning. Transforms in the paced and cubic modes are interpolated as vectors of decomposed components (translation, θ, scale, residual), each angle unwrapped to within π of the previous keyframe's; paced distances mix points and radians."
  - "Keyframe warnings (never a 422): `keyTimes` whose count does not fit the mode (linear, cubic: one per value; discrete: that or one more), that do not start at 0 or end at 1, or that decrease are ignored (even spacing) with a warning at `/animations/i/keyTimes`; `timingFunctions` whose count is not n − 1 are ignored (linear segments) with a warning at `/animations/i/timingFunctions`; TCB arrays whose count is not n are replaced by zeros with a warning at that member. A `values` transform adds a warning at `/animations/i/values/k` when it is singular and, in linear mode, makes a neighbouring segment discrete (both ends of a segment given as components interpolate their components instead), or, in the paced and cubic modes, is a singular `matrix` or `ops` value (read as the CSS unmatrix leaves it; singular components are used as given). A singular transform in UIView keyframes makes its segments switch at their midpoint, with a warning at the channel in the first keyframe that names it (`/animations/i/keyframes/j/to/transform`)."
  - "Events (docs/rules.md \"The render response\", rule 18): `start` (an autostart at its time, 0, also before a delay, a `start` command, a physics restart by `retarget`), `pause` (a `pause` command, a `fraction` that pauses, `pausesOnCompletion`, an interaction's initial pause), `stop` (with `withoutFinishing`), `reverse` (with `reversed`), `continue`, `addAnimations`, `retarget`, `grab`, `release`, `interactionFinish`, `interactionCancel`, `completion` (with `position`: `end` or `start` where a run reaches an end, a `finish` command's `start`, `end` or `current`). Each has `t` (exact, not rounded to a frame; events after the last frame, before an earlier `until`, are still listed), `animation` (the id) and `type`, then `command` when a command caused it, then `position`, `withoutFinishing` or `reversed`. Sorted by time, then as the events-at-one-instant choice says. An unbounded animator has no completion; an animator with `autostart: false` that nothing drives has no events."
  - "Animators: one entry per animation, in array order, keyed by id. `fraction` is the time fraction over the whole run (repeats and reverse passes included): 0 during a delay, what a `fraction` command or the interaction set while paused, linear in time over a `continue` glide or an interaction release, 0 for an animation that repeats forever; `state` is `inactive`, `running`, `paused` or `stopped` (rule 13); `reversed` follows `reverse` commands and an interaction cancel. A physics animation reports `fraction: null`, `state` `running` while it moves or is dragged and `inactive` before its start, at rest and after a stop (an autostart's delay is `running`), and `reversed` always false. An animator with `autostart: false` that nothing drives is `inactive` at fraction 0 on every frame and its animation has no effect on its channels."
  - "`velocities: true` adds `velocity`, laid out as `views`, the right-hand derivative per component. For channels moved by `to` animations on numbers (geometry, alpha, colours, corner radius, custom channels) it is exact: (to − from) · p′(τ) of the owning animation plus every additive one, 0 wherever a value is held (before a start, during a delay, after completion, on steps), negated on the way back of an autoreverse, and ±1.7976931348623157e308 where a slope is infinite (rule 4). Transforms (per matrix entry) and keyframe tracks use the right-hand second-order one-sided difference (−3 f(t) + 4 f(t + h) − f(t + 2h)) / 2h with h = 1 µs, exactly 0 where the three values are equal; there the last digits carry rounding noise."
  - "A value that is not finite is a 422 with `pointer` `/views/<view>/<channel>` and the time in `detail`, found while writing (with the ±1e15 input range it takes an extreme timing, such as a Bézier with y in the 1e300s)."
  - "Render JSON: members in the order `fps`, `duration`, `frameCount`, `t`, `views`, `velocity` (only with `velocities: true`), `events`, `animators`, `warnings`, `expanded` (only with `?expand=true`). Render CSV (`text/csv; charset=utf-8`): the header `t` then one column per channel component, `<view>.<channel><suffix>` — `.x`, `.y`, `.w`, `.h` for `frame` and `bounds`; `.r`, `.g`, `.b`, `.a` for `backgroundColor`; `.a`, `.b`, `.c`, `.d`, `.tx`, `.ty` for transforms; `.0`, `.1`, … for `center` and array custom channels; no suffix for scalars — in the order of the JSON `views`; a column name containing a comma, a double quote, CR or LF is quoted as in RFC 4180; then one row per frame, every line ended by LF. CSV has no velocities, events, animators or warnings."
  - "Render streaming: a body whose estimated size is above 1 MiB (19 bytes per number: for JSON frames × ((1 + components) × 19 + 30 × animators), components doubled with `velocities`; for CSV frames × (1 + components) × 19) is produced twice: a first pass checks that every value is finite (a 422 before anything is sent) and computes the ETag, and the second writes the body while it is sent with `Transfer-Encoding: chunked` and the identity coding, whatever `Accept-Encoding` says. `If-None-Match` gives 304 after the first pass. Smaller bodies are written whole, with `Content-Length`, and gzipped as above."
paths:
  /v1/curve:
    description: |
      Sample one timing curve (docs/rules.md "The curve route"). Other methods answer 405 with `Allow: POST, OPTIONS`.
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
          $ref: '#/components/responses/PreflightPost'
        '413':
          $ref: '#/components/responses/TooLarge'
  /v1/render:
    description: |
      Render a transition description to a frame timeline (docs/rules.md "The render route"). Other methods answer 405
      with `Allow: POST, OPTIONS`.
    post:
      operationId: render
      summary: Render views and their animations to frames
      description: |
        Samples every reported channel of every view at each frame time, with the state of every
        animator and the events between them.

        Frame times:
        - `at`: exactly those times (non-decreasing, each in [0, 3600]); the response has
          `fps: null`. `at` excludes `fps` and `until`;
        - otherwise `t_i = i / fps` (`fps` default 60) for `i = 0 … ceil(end · fps − 1e-9)`, where
          `end` is `until`, or else the latest of every command's `at` and the time each animator
          settles (0 when none starts: one frame at t = 0).

        Animations are UIView block animations (`to`), UIView keyframe animations (`keyframes`)
        or CAKeyframeAnimations on one channel (`values`), each with its own running
        UIViewPropertyAnimator. Overlapping animations on a channel blend by `blend` (`replace`:
        beginFromCurrentState; `additive`: UIKit's additive animators). Transforms interpolate as
        Core Animation does (decomposed, shortest arc) unless `rotationPath` is `direct`.
        After an animation completes its channels hold their final values exactly.

        Physics animations (`dynamics`: spring, attachment, snap, popSpring, decay; exact, Euler
        or RK4 integration) come to rest by their forces.

        `commands` drive the animators as UIViewPropertyAnimator's methods do (`start`, `pause`,
        `stop`, `finish`, `reverse`, `fraction`, `continue`, `addAnimations`) and the physics
        animations (`retarget`, `drag`, `stop`); a command the animator's state does not accept is
        a 422 of kind `illegal-command` naming the command, the state and the ops allowed there.
        `interaction` replays a percent-driven interactive transition
        (UIPercentDrivenInteractiveTransition) from percent updates or a pan or pinch gesture.
        `transition` names a preset (`GET /v1/presets`) that expands into views, animations,
        commands and interaction before rendering; `?expand=true` returns the expanded request
        under `expanded`. The response's `events` list every state change at its exact time and
        `animators` give each animator's fraction, state and direction per frame.

        Format: `?format=json|csv` (wins) or `Accept` (`application/json`, `text/csv`); JSON by
        default. `svg` and `css` are not produced yet and answer 406, as does anything else.
        Bodies estimated above 1 MiB are streamed (`Transfer-Encoding: chunked`, never gzipped)
        after a first pass that checks every value is finite and computes the `ETag`; smaller ones
        are sent whole and gzipped above 1024 bytes when `Accept-Encoding` admits gzip.
      parameters:
        - $ref: '#/components/parameters/Format'
        - $ref: '#/components/parameters/Expand'
        - $ref: '#/components/parameters/IfNoneMatch'
      requestBody:
        required: true
        description: |
          A JSON `RenderRequest`. Read as JSON when `Content-Type` is `application/json`,
          `application/*+json`, `application/x-www-form-urlencoded`, empty or absent; anything
          else is 415. At most 1 MiB (413) and 64 levels of nesting (400) by default.
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/RenderRequest'
            examples:
              fade:
                summary: A fade and a shrink on a 4 fps grid (the default transform is reported because it is animated)
                value: {"fps": 4, "views": {"card": {"alpha": 1}}, "animations": [{"id": "fade", "view": "card", "duration": 0.5, "timing": "linear", "to": {"alpha": 0, "transform": {"scale": [0.5, 0.5]}}}]}
              bouncingPresent:
                summary: docs/rules.md "The render route" — a card presented with UIKit's spring (animateWithDuration:usingSpringWithDamping:)
                value: {"fps": 60, "views": {"card": {"frame": [0, 568, 320, 568], "alpha": 1}}, "animations": [{"id": "present", "view": "card", "duration": 0.8, "timing": {"type": "spring", "dampingRatio": 0.6, "initialVelocity": 0}, "to": {"frame": [0, 0, 320, 568]}}]}
              keyframes:
                summary: UIView keyframes (a channel first named in a later keyframe holds until then) and a fade, at chosen times
                value: {"at": [0, 0.25, 0.5, 1], "views": {"card": {"center": [160, 284], "transform": {}}, "cover": {"alpha": 1}}, "animations": [{"id": "drop", "view": "card", "duration": 1, "timing": "linear", "keyframes": [{"start": 0, "duration": 0.5, "to": {"transform": {"rotation": 0.5}}}, {"start": 0.5, "duration": 0.5, "to": {"center": [160, 900], "transform": {"ops": [{"translate": [0, 40]}, {"rotate": 1}]}}}]}, {"id": "fade", "view": "cover", "duration": 1, "timing": "easeOut", "to": {"alpha": 0}}]}
              keyframeValues:
                summary: A CAKeyframeAnimation with keyTimes in cubic (Catmull-Rom) mode on a custom channel
                value: {"at": [0, 0.25, 0.5, 0.75, 1], "views": {"v": {"x": 0}}, "animations": [{"view": "v", "duration": 1, "channel": "x", "values": [0, 10, 30], "keyTimes": [0, 0.25, 1], "timing": "linear", "calculationMode": "cubic"}]}
              additiveWithVelocities:
                summary: A second animation added on top of the first (UIKit's additive animators), with velocities
                value: {"fps": 4, "velocities": true, "views": {"v": {"x": 0}}, "animations": [{"id": "A", "view": "v", "duration": 1, "timing": "linear", "to": {"x": 100}}, {"id": "B", "view": "v", "duration": 1, "delay": 0.5, "timing": "linear", "to": {"x": 200}, "blend": "additive"}]}
              repeatAndPause:
                summary: Custom channels, 1.5 autoreversing repeats, pausing on completion, rendered until 2 s
                value: {"fps": 2, "until": 2, "views": {"blob": {"blur": 0, "uniforms": [0, 0, 1]}}, "animations": [{"view": "blob", "duration": 0.5, "to": {"blur": 8, "uniforms": [1, 0.5, 1]}, "repeatCount": 1.5, "autoreverses": true, "pausesOnCompletion": true}]}
              commands:
                summary: UIViewPropertyAnimator commands — pause, scrub, reverse, then continue at double speed back to the start
                value: {"fps": 4, "views": {"card": {"x": 0}}, "animations": [{"id": "a", "view": "card", "duration": 1, "timing": "linear", "to": {"x": 100}}], "commands": [{"at": 0.25, "animation": "a", "op": "pause"}, {"at": 0.5, "animation": "a", "op": "fraction", "value": 0.5}, {"at": 0.5, "animation": "a", "op": "reverse"}, {"at": 0.75, "animation": "a", "op": "continue", "durationFactor": 0.5}]}
              continueAndAdd:
                summary: continue with a new curve (a UIKit spring over the remaining time), and a block added half-way through the rest
                value: {"fps": 10, "views": {"card": {"center": [160, 100], "alpha": 1}}, "animations": [{"id": "move", "view": "card", "duration": 1, "to": {"center": [160, 500]}}], "commands": [{"at": 0.3, "animation": "move", "op": "pause"}, {"at": 0.4, "animation": "move", "op": "addAnimations", "to": {"alpha": 0}, "delayFactor": 0.5}, {"at": 0.5, "animation": "move", "op": "continue", "timing": {"type": "spring", "dampingRatio": 0.7}}]}
              interactionPan:
                summary: An interactive dismissal driven by a pan gesture; it passes the threshold and finishes along easeOut
                value: {"fps": 5, "views": {"sheet": {"center": [160, 284]}}, "animations": [{"id": "dismiss", "view": "sheet", "duration": 0.5, "timing": "linear", "to": {"center": [160, 852]}}], "interaction": {"animations": ["dismiss"], "gesture": {"kind": "pan", "distance": 568, "samples": [[0, 0], [0.1, 120], [0.2, 340]]}, "completionCurve": "easeOut"}}
              interactionUpdates:
                summary: Percent updates, then a cancel that runs the animator back to the start
                value: {"fps": 10, "views": {"v": {"alpha": 1}}, "animations": [{"id": "fade", "view": "v", "duration": 1, "timing": "linear", "to": {"alpha": 0}}], "interaction": {"animations": ["fade"], "updates": [{"at": 0, "percent": 0}, {"at": 0.1, "percent": 0.2}, {"at": 0.2, "percent": 0.3}], "end": {"at": 0.3, "action": "cancel"}, "completionSpeed": 2}}
              physicsDragRetarget:
                summary: A pane on an attachment, dragged up by the finger and released toward its open position
                value: {"fps": 10, "until": 1, "views": {"pane": {"center": [160, 700]}}, "animations": [{"id": "pane", "view": "pane", "to": {"center": [160, 700]}, "autostart": false, "dynamics": {"model": "attachment", "frequency": 3.5, "damping": 0.4}}], "commands": [{"at": 0, "animation": "pane", "op": "drag", "samples": [[0, 160, 700], [0.1, 160, 650], [0.2, 160, 560]]}, {"at": 0.2, "animation": "pane", "op": "retarget", "to": {"center": [160, 340]}}]}
              transition:
                summary: A preset (`GET /v1/presets`) with one parameter changed and the frame grid passed through
                value: {"fps": 4, "transition": {"preset": "zoomPush", "container": [0, 0, 320, 568], "duration": 0.5}}
      responses:
        '200':
          description: |
            The frame timeline. JSON (`application/json`, `RenderResponse`) or CSV
            (`text/csv; charset=utf-8`). Large bodies are streamed with
            `Transfer-Encoding: chunked` and no `Content-Encoding`; the tag is the same as the
            whole identity body would have.
          headers:
            ETag:
              $ref: '#/components/headers/ETag'
            Vary:
              $ref: '#/components/headers/Vary'
            Content-Encoding:
              $ref: '#/components/headers/ContentEncoding'
            Transfer-Encoding:
              $ref: '#/components/headers/TransferEncoding'
            Access-Control-Allow-Origin:
              $ref: '#/components/headers/AccessControlAllowOrigin'
            Access-Control-Expose-Headers:
              $ref: '#/components/headers/AccessControlExposeHeaders'
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/RenderResponse'
              examples:
                fade:
                  summary: The `fade` request example
                  value:
                    fps: 4
                    duration: 0.5
                    frameCount: 3
                    t: [0, 0.25, 0.5]
                    views:
                      card:
                        alpha: [1, 0.5, 0]
                        transform: [[1, 0, 0, 1, 0, 0], [0.75, 0, 0, 0.75, 0, 0], [0.5, 0, 0, 0.5, 0, 0]]
                    events:
                      - {"t": 0, "animation": "fade", "type": "start"}
                      - {"t": 0.5, "animation": "fade", "type": "completion", "position": "end"}
                    animators:
                      fade: {"fraction": [0, 0.5, 1], "state": ["running", "running", "inactive"], "reversed": [false, false, false]}
                    warnings: []
                commands:
                  summary: The `commands` request example
                  value:
                    fps: 4
                    duration: 1
                    frameCount: 5
                    t: [0, 0.25, 0.5, 0.75, 1]
                    views:
                      card:
                        x: [0, 25, 50, 50, 0]
                    events:
                      - {"t": 0, "animation": "a", "type": "start"}
                      - {"t": 0.25, "animation": "a", "type": "pause", "command": 0}
                      - {"t": 0.5, "animation": "a", "type": "reverse", "command": 2, "reversed": true}
                      - {"t": 0.75, "animation": "a", "type": "continue", "command": 3}
                      - {"t": 1, "animation": "a", "type": "completion", "position": "start"}
                    animators:
                      a: {"fraction": [0, 0.25, 0.5, 0.5, 0], "state": ["running", "paused", "paused", "running", "inactive"], "reversed": [false, false, true, true, true]}
                    warnings: []
                expanded:
                  summary: A crossDissolve preset (container [0, 0, 320, 568], duration 0.5, linear, fps 4) with `?expand=true`
                  value:
                    fps: 4
                    duration: 0.5
                    frameCount: 3
                    t: [0, 0.25, 0.5]
                    views:
                      from:
                        frame: [[0, 0, 320, 568], [0, 0, 320, 568], [0, 0, 320, 568]]
                        alpha: [1, 0.5, 0]
                      to:
                        frame: [[0, 0, 320, 568], [0, 0, 320, 568], [0, 0, 320, 568]]
                        alpha: [0, 0.5, 1]
                    events:
                      - {"t": 0, "animation": "fadeOut", "type": "start"}
                      - {"t": 0, "animation": "fadeIn", "type": "start"}
                      - {"t": 0.5, "animation": "fadeOut", "type": "completion", "position": "end"}
                      - {"t": 0.5, "animation": "fadeIn", "type": "completion", "position": "end"}
                    animators:
                      fadeOut: {"fraction": [0, 0.5, 1], "state": ["running", "running", "inactive"], "reversed": [false, false, false]}
                      fadeIn: {"fraction": [0, 0.5, 1], "state": ["running", "running", "inactive"], "reversed": [false, false, false]}
                    warnings: []
                    expanded: {"views": {"from": {"frame": [0, 0, 320, 568], "alpha": 1}, "to": {"frame": [0, 0, 320, 568], "alpha": 0}}, "animations": [{"id": "fadeOut", "view": "from", "duration": 0.5, "timing": "linear", "to": {"alpha": 0}}, {"id": "fadeIn", "view": "to", "duration": 0.5, "timing": "linear", "to": {"alpha": 1}}], "fps": 4}
            text/csv:
              schema:
                $ref: '#/components/schemas/RenderCSV'
              example: "t,card.alpha,card.transform.a,card.transform.b,card.transform.c,card.transform.d,card.transform.tx,card.transform.ty\n0,1,1,0,0,1,0,0\n0.25,0.5,0.75,0,0,0.75,0,0\n0.5,0,0.5,0,0,0.5,0,0\n"
        '304':
          $ref: '#/components/responses/NotModified'
        '400':
          $ref: '#/components/responses/RenderBadRequest'
        '406':
          $ref: '#/components/responses/NotAcceptable'
        '413':
          $ref: '#/components/responses/RenderTooLarge'
        '415':
          $ref: '#/components/responses/UnsupportedMediaType'
        '422':
          $ref: '#/components/responses/RenderInvalid'
    options:
      operationId: preflightRender
      summary: CORS preflight
      responses:
        '204':
          $ref: '#/components/responses/PreflightPost'
        '413':
          $ref: '#/components/responses/TooLarge'
  /v1/presets:
    description: |
      The transition presets (docs/rules.md "Routes", rule 25). Other methods answer 405 with
      `Allow: GET, HEAD, OPTIONS`.
    get:
      operationId: listPresets
      summary: List the transition presets with their parameters and defaults
      description: |
        `{"presets": [{"name", "description", "parameters": {name: {"default", "description"}}}]}`,
        in the order of the list in docs/rules.md "Presets": `bouncePresent`, `slideDismiss`, `zoomPush`, `zoomPop`,
        `dropDismiss`, `crossDissolve`, `swipeUpDismiss`, `pane`. Each `description` states exactly
        what the preset expands into (views, animations and, for `swipeUpDismiss` and `pane`, the
        interaction or commands); each parameter's `default` is what the expansion uses when the
        parameter is absent or `null` (a `null` default is computed from the container or other
        parameters, as the parameter's description says). The expansion and this list read the
        same table, so every parameter a preset accepts is listed. `format` and `Accept` are
        ignored; the body is the same for every request.
      parameters:
        - $ref: '#/components/parameters/IfNoneMatch'
      responses:
        '200':
          $ref: '#/components/responses/Presets'
        '304':
          $ref: '#/components/responses/NotModified'
        '413':
          $ref: '#/components/responses/TooLarge'
    head:
      operationId: headPresets
      summary: The preset list, headers only
      parameters:
        - $ref: '#/components/parameters/IfNoneMatch'
      responses:
        '200':
          $ref: '#/components/responses/Presets'
        '304':
          $ref: '#/components/responses/NotModified'
        '413':
          $ref: '#/components/responses/TooLarge'
    options:
      operationId: preflightPresets
      summary: CORS preflight
      responses:
        '204':
          $ref: '#/components/responses/PreflightGet'
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
        Response format; wins over `Accept`. Case-insensitive. The `svg` and `css` formats of docs/rules.md "Formats and negotiation" are not
        produced by this build: like any value outside this list, they answer 406.
      schema:
        type: string
        enum: [json, csv]
    Expand:
      name: expand
      in: query
      required: false
      description: |
        `true` adds `expanded` to the JSON response: the request as rendered, after a `transition`
        preset's expansion (the request itself when it has none). Exactly `true` or `false`
        (absent: false); any other value, or `true` with a non-JSON format (`?format=csv`, or an
        `Accept` that selects CSV), is a 400 `invalid-query`, decided after the format (406) and
        before the body is read.
      schema:
        type: string
        enum: ['true', 'false']
        default: 'false'
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
        bytes; absent otherwise, and always absent on a streamed render body.
      schema:
        type: string
        const: gzip
    TransferEncoding:
      description: |
        `chunked` on a render body estimated above 1 MiB, which is written while it is sent
        (no `Content-Length`, identity coding); absent otherwise.
      schema:
        type: string
        const: chunked
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
            description: This document, as YAML text.
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
    PreflightPost:
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
    RenderBadRequest:
      description: |
        The body is not acceptable JSON (the kinds of `BadRequest`: `malformed-json`,
        `invalid-utf8`, `number-out-of-range`, `nesting-too-deep`, `wrong-type`), or kind
        `invalid-query` (no `pointer`): `expand` is neither `true` nor `false`, or `expand=true`
        asks for a non-JSON response. The query is checked before the body is read.
      headers:
        Access-Control-Allow-Origin:
          $ref: '#/components/headers/AccessControlAllowOrigin'
        Access-Control-Expose-Headers:
          $ref: '#/components/headers/AccessControlExposeHeaders'
      content:
        application/problem+json:
          schema:
            $ref: '#/components/schemas/Problem'
          examples:
            wrongType:
              summary: A member of the wrong JSON type
              value:
                type: https://segue.dev/problems/wrong-type
                title: Bad Request
                status: 400
                detail: '`/fps` must be a number, not string'
                pointer: /fps
            invalidQuery:
              summary: '`?expand=true&format=csv`'
              value:
                type: https://segue.dev/problems/invalid-query
                title: Bad Request
                status: 400
                detail: '`expand=true` adds the expanded request to a JSON response; it does not apply to csv'
    Presets:
      description: The preset catalogue (the same bytes for every request).
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
            $ref: '#/components/schemas/PresetCatalogue'
          example:
            presets:  # abridged: the body lists every preset
              - name: crossDissolve
                description: 'A cross-dissolve (UIModalTransitionStyle.crossDissolve): the old view fades out while the new one fades in. Views: `from` {frame: container, alpha: 1}, `to` {frame: container, alpha: 0}. Animations: `fadeOut` on `from` {duration, timing, to: {alpha: 0}} and `fadeIn` on `to` {duration, timing, to: {alpha: 1}}.'
                parameters:
                  duration: {"default": 0.3, "description": "seconds"}
                  timing: {"default": "easeInOut", "description": "any timing of docs/rules.md \"Timing curves\" that runs for a duration (a spring only with `dampingRatio`)"}
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
    RenderTooLarge:
      description: |
        Kind `too-large`: the body is over the limit (1 MiB by default; no `pointer`), or the render
        would exceed a limit, decided before any sampling: more than 100 000 frames (`at`, or the
        `fps` grid up to `end`; `pointer` `/at` or `/fps` when given, none on the default 60 fps
        grid), or more than 5 000 000 numbers, counted as frames × (1 + Σ channel components ×
        (2 with `velocities`) + 3 × animators) (no `pointer`). `detail` names the limit.
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
            detail: 3600001 frames (3600.0 s at 1000.0 fps) are over the limit of 100000 frames per response
            pointer: /fps
    RenderInvalid:
      description: |
        Kind `invalid-request`: well-formed but invalid — a missing `views`; `at` with `fps` or
        `until`, an empty or decreasing `at`, a time outside [0, 3600]; `fps` outside [1, 1000],
        `until` outside [0, 3600]; more than 1000 views or 10 000 animations and commands; a view
        giving `frame` with `center` or `bounds`; a channel of the wrong length; a custom channel of
        no or more than 64 numbers; a transform mixing forms or an unknown op; unknown members (top level,
        animation, keyframe, transform, op); a missing or unknown `view`; none or several of
        `to`/`keyframes`/`values`; an empty `to`, `keyframes` or `values`; a `values` animation
        without `channel`; a target channel without a default that the view did not give (geometry,
        custom channels); `calculationMode` with `to` or unknown; an unknown `blend` or
        `rotationPath`; a keyframe out of [0, 1] or ending after 1; a missing or non-positive
        `duration`, a `duration` with a spring other than UIKit's, a spring with keyframes or
        `values`, any timing error of `/v1/curve`; `delay` < 0; `repeatCount` < 0; a duration,
        delay or repeat total over 3600 s; a non-Bézier `timingFunctions` entry; duplicate ids; an
        animation that never ends without `until`; a value that is not finite; in `commands` an
        unknown animation or op, `at` outside [0, 3600], a member out of range or of another op, a
        `drag` sample out of order or range, `withoutFinishing: false` on a physics animation,
        `retarget` on a decay, `fraction`/`addAnimations`/`continue` with timing on an animation
        that repeats forever, a `continue` spring that never settles without `until`; in
        `interaction` an unknown, repeated, physics or endlessly repeating animation, a spring
        `completionCurve`, `gesture` with `updates`/`end`, a decreasing time, a pinch starting at
        scale 0; with `transition` a member the preset gives, an unknown preset or parameter, a
        bad `container` or parameter value. `pointer` names the member.

        Kind `illegal-command` (https://segue.dev/problems/illegal-command): a command UIKit would
        reject in the animator's state (docs/rules.md rule 13). `pointer` is `/commands/i` (i the
        command's index in the request array); the extension members `state` (the state the
        command met: `inactive`, `running`, `paused` or `stopped`; for a physics animation
        `running` or `inactive`) and `allowed` (every op accepted in that state without error,
        no-ops included; for a physics animation `retarget`, `drag`, `stop`) follow `pointer`.
      headers:
        Access-Control-Allow-Origin:
          $ref: '#/components/headers/AccessControlAllowOrigin'
        Access-Control-Expose-Headers:
          $ref: '#/components/headers/AccessControlExposeHeaders'
      content:
        application/problem+json:
          schema:
            $ref: '#/components/schemas/Problem'
          examples:
            invalid:
              summary: A geometry channel the view did not give
              value:
                type: https://segue.dev/problems/invalid-request
                title: Unprocessable Content
                status: 422
                detail: 'view `card` gave frame: `center` has no default and cannot be animated'
                pointer: /animations/0/to/center
            illegalCommand:
              summary: '`finish` while the animator is running (only a stopped animator can finish)'
              value:
                type: https://segue.dev/problems/illegal-command
                title: Unprocessable Content
                status: 422
                detail: '`finish` is not allowed while the animator is running; allowed: start, pause, stop, reverse, fraction, addAnimations'
                pointer: /commands/0
                state: running
                allowed: [start, pause, stop, reverse, fraction, addAnimations]
            illegalPhysicsCommand:
              summary: A block animator's op sent to a physics animation
              value:
                type: https://segue.dev/problems/illegal-command
                title: Unprocessable Content
                status: 422
                detail: '`pause` is not allowed while the animator is running; allowed: retarget, drag, stop'
                pointer: /commands/0
                state: running
                allowed: [retarget, drag, stop]
            transitionClash:
              summary: A request with `transition` that also gives `views`
              value:
                type: https://segue.dev/problems/invalid-request
                title: Unprocessable Content
                status: 422
                detail: '`views` comes from the preset: a request with `transition` does not give it'
                pointer: /views
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
      description: A CSS easing string, or a timing object by `type` (docs/rules.md "Timing curves").
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
        The same spring in every parametrisation (docs/rules.md "The curve route"), so a client can convert between
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
    RenderRequest:
      type: object
      description: |
        `POST /v1/render` (docs/rules.md "The render route"). `views` is required unless `transition` gives it; `at`
        excludes `fps` and `until` (422 pointing at `fps`, else `until`). Unknown members are 422.
        A request with `transition` is first expanded into `views`, `animations` and, where the
        preset needs them, `commands` and `interaction` (so it gives none of those itself: 422 at
        the member); its other members pass through.
      additionalProperties: false
      anyOf:
        - required: [views]
        - required: [transition]
      properties:
        views:
          type: object
          description: |
            View name → its starting channels, in request order (at most 1000 views, else 422).
            A view with no channels is not reported.
          maxProperties: 1000
          additionalProperties:
            $ref: '#/components/schemas/View'
        animations:
          type: array
          description: At most 10 000 together with `commands` (422); ids must be unique.
          maxItems: 10000
          default: []
          items:
            $ref: '#/components/schemas/Animation'
        fps:
          type: number
          minimum: 1
          maximum: 1000
          default: 60
          description: Frames at `i / fps` for `i = 0 … ceil(end · fps − 1e-9)`.
        until:
          type: number
          minimum: 0
          maximum: 3600
          description: |
            The timeline's end; default: the time the last started animation completes (0 when
            none does). Required by an animation that never ends (`repeatCount: "infinite"`, an
            undamped spring).
        at:
          type: array
          minItems: 1
          maxItems: 100000
          description: |
            Exactly these frame times, non-decreasing, each in [0, 3600]; the response has
            `fps: null`. Empty, decreasing or out of range is 422; over the frames limit is 413.
          items:
            type: number
            minimum: 0
            maximum: 3600
        velocities:
          type: boolean
          default: false
          description: Adds `velocity`, d(value)/dt per frame (see `RenderResponse`).
        commands:
          type: array
          description: |
            Animator commands (docs/rules.md "Commands", rules 13–17, 20–22), applied in `at` order
            (ties in array order). At most 10 000 together with `animations` (422 at `/commands`).
            A command the animator's state does not accept is a 422 `illegal-command`.
          maxItems: 10000
          default: []
          items:
            $ref: '#/components/schemas/Command'
        interaction:
          $ref: '#/components/schemas/Interaction'
        transition:
          $ref: '#/components/schemas/Transition'
      not:
        anyOf:
          - required: [at, fps]
          - required: [at, until]
          - required: [transition, views]
          - required: [transition, animations]
          - required: [transition, commands]
          - required: [transition, interaction]
    Command:
      description: |
        One command, `{"at", "animation", "op", …}`, driving the animator of animation `animation`
        at time `at` as the UIViewPropertyAnimator method of the same name does (block animations)
        or as the physics ops of docs/rules.md "Commands" do (`retarget`, `drag`, `stop` on a physics animation). Members
        of another op are unknown members (422). The state machine (docs/rules.md rule 13; the UIKit
        documentation each rule rests on):

        - `inactive` accepts `start`, `pause`, `fraction`, `reverse`, `addAnimations` (`pause` and
          `fraction` make it `paused`); `running` accepts `pause`, `stop`, `reverse`, `fraction`
          (pauses first, event `pause`), `addAnimations` and `start` (a no-op); `paused` accepts
          `start`, `stop`, `reverse`, `fraction`, `continue`, `addAnimations` and `pause` (a
          no-op); `stopped` accepts `finish` only. `finishAnimation(at:)`: "The animator must be in
          the UIViewAnimatingState.stopped state"; `stopAnimation(_:)` on an inactive animator is a
          programmer error; `continueAnimation` is "only valid while paused"
          (UIViewImplicitlyAnimating).
        - Running, the time fraction f changes at ±1/duration and progress is timing(f), so
          reversing retraces the curve: `isReversed` — "the animator runs … in the reverse
          direction, returning the animations to their initial state".
        - Paused, progress is f with `scrubsLinearly` — "the animator uses linear interpolation …
          while scrubbing" — else timing(f); resuming along the curve jumps to timing(f), with a
          warning.
        - `continue` "uses the new timing parameters to finish" from the presented values;
          without `timing` the animator's own curve resumes at f at speed 1/durationFactor.
        - `addAnimations(_:delayFactor:)`: "the delay factor … multiplied by the remaining
          duration"; the block ends with the animator.
        - `stop` with `withoutFinishing: true`: "the animator moves to the inactive state", values
          left where they are, no completion; false: `stopped`, awaiting `finish`.
          `pausesOnCompletion`: "the animator … does not transition to the inactive state" —
          reaching the end pauses.
        - A start delay: `running` at fraction 0, contributing nothing; `pause` freezes what is
          left of it; `fraction`, `stop`, `reverse`, `finish` and `continue` cancel it.
        - At one instant: commands in order, then completions, then interaction releases.

        A physics animation is `running` while it moves or is dragged and `inactive` otherwise, and
        accepts `retarget`, `drag` and `stop` in every state and nothing else. See
        `x-segue-choices` for every detail.
      oneOf:
        - $ref: '#/components/schemas/StartCommand'
        - $ref: '#/components/schemas/PauseCommand'
        - $ref: '#/components/schemas/StopCommand'
        - $ref: '#/components/schemas/FinishCommand'
        - $ref: '#/components/schemas/ReverseCommand'
        - $ref: '#/components/schemas/FractionCommand'
        - $ref: '#/components/schemas/ContinueCommand'
        - $ref: '#/components/schemas/AddAnimationsCommand'
        - $ref: '#/components/schemas/RetargetCommand'
        - $ref: '#/components/schemas/DragCommand'
      discriminator:
        propertyName: op
        mapping:
          start: '#/components/schemas/StartCommand'
          pause: '#/components/schemas/PauseCommand'
          stop: '#/components/schemas/StopCommand'
          finish: '#/components/schemas/FinishCommand'
          reverse: '#/components/schemas/ReverseCommand'
          fraction: '#/components/schemas/FractionCommand'
          continue: '#/components/schemas/ContinueCommand'
          addAnimations: '#/components/schemas/AddAnimationsCommand'
          retarget: '#/components/schemas/RetargetCommand'
          drag: '#/components/schemas/DragCommand'
    CommandTime:
      type: number
      minimum: 0
      maximum: 3600
      description: Seconds on the timeline (422 outside [0, 3600], at `/commands/i/at`).
    CommandAnimation:
      type: string
      description: The id of the animation whose animator the command drives (422 when unknown, at `/commands/i/animation`).
    StartCommand:
      type: object
      title: start
      description: |
        `startAnimation(afterDelay:)`: block animations. Emits `start`; during the delay the
        animator is `running` and holds (fraction 0 and no contribution if it never showed
        anything). On a completed animator it restarts from the fraction it completed at (at 1 it
        completes again at once). A no-op while running.
      additionalProperties: false
      required: [at, animation, op]
      properties:
        at:
          $ref: '#/components/schemas/CommandTime'
        animation:
          $ref: '#/components/schemas/CommandAnimation'
        op:
          const: start
        delay:
          type: number
          minimum: 0
          maximum: 3600
          default: 0
          description: Seconds; added to what is left of a delay a `pause` froze.
    PauseCommand:
      type: object
      title: pause
      description: |
        `pauseAnimation()`: block animations. Emits `pause`; during a delay it freezes the rest of
        the delay. A no-op while paused.
      additionalProperties: false
      required: [at, animation, op]
      properties:
        at:
          $ref: '#/components/schemas/CommandTime'
        animation:
          $ref: '#/components/schemas/CommandAnimation'
        op:
          const: pause
    StopCommand:
      type: object
      title: stop
      description: |
        `stopAnimation(_:)`: the values stay where they are; event `stop` with `withoutFinishing`.
        Block animations: `true` leaves the animator `inactive` (no completion), `false` leaves it
        `stopped`, awaiting `finish`. Physics animations: always `inactive` (velocity 0; during a
        drag the rest of the samples are dropped); `withoutFinishing: false` is a 422 at that member.
      additionalProperties: false
      required: [at, animation, op]
      properties:
        at:
          $ref: '#/components/schemas/CommandTime'
        animation:
          $ref: '#/components/schemas/CommandAnimation'
        op:
          const: stop
        withoutFinishing:
          type: boolean
          default: true
    FinishCommand:
      type: object
      title: finish
      description: |
        `finishAnimation(at:)`, only in the `stopped` state: a `completion` event with the
        command's index and `position`, leaving the animator `inactive` at the start values, the
        end values, or where it is (`current`).
      additionalProperties: false
      required: [at, animation, op]
      properties:
        at:
          $ref: '#/components/schemas/CommandTime'
        animation:
          $ref: '#/components/schemas/CommandAnimation'
        op:
          const: finish
        position:
          type: string
          enum: [start, end, current]
          default: end
    ReverseCommand:
      type: object
      title: reverse
      description: |
        `isReversed`: event `reverse` with `reversed`; a running animator retraces its curve
        (f · duration back to the start). Setting the value it already has is a no-op (no event).
      additionalProperties: false
      required: [at, animation, op]
      properties:
        at:
          $ref: '#/components/schemas/CommandTime'
        animation:
          $ref: '#/components/schemas/CommandAnimation'
        op:
          const: reverse
        reversed:
          type: boolean
          default: true
    FractionCommand:
      type: object
      title: fraction
      description: |
        `fractionComplete`: sets the time fraction; an inactive or running animator is paused first
        (event `pause` with the command's index). Shows progress `value` with `scrubsLinearly`,
        else timing(`value`). Not on an animation that repeats forever (422 at `op`).
      additionalProperties: false
      required: [at, animation, op, value]
      properties:
        at:
          $ref: '#/components/schemas/CommandTime'
        animation:
          $ref: '#/components/schemas/CommandAnimation'
        op:
          const: fraction
        value:
          type: number
          minimum: 0
          maximum: 1
    ContinueCommand:
      type: object
      title: continue
      description: |
        `continueAnimation(withTimingParameters:durationFactor:)`, only while paused: event
        `continue`, state `running`. Without `timing` the own curve resumes at f at speed
        1/`durationFactor`. With `timing` progress runs from the presented value to the end (the
        start when reversed) along it in (1 − f) · duration · durationFactor (f · … reversed) —
        a UIKit `dampingRatio` spring takes that window as its duration, other spring sets run for
        their settling duration and ignore the factor — and the fraction runs linearly over that
        window. A `timing` on an animation that repeats forever is a 422 at `op`; a spring that
        never settles needs `until` (422 at `timing`).
      additionalProperties: false
      required: [at, animation, op]
      properties:
        at:
          $ref: '#/components/schemas/CommandTime'
        animation:
          $ref: '#/components/schemas/CommandAnimation'
        op:
          const: continue
        timing:
          $ref: '#/components/schemas/Timing'
        durationFactor:
          type: number
          exclusiveMinimum: 0
          default: 1
          description: durationFactor × the animation's active duration must be ≤ 3600 (422).
    AddAnimationsCommand:
      type: object
      title: addAnimations
      description: |
        `addAnimations(_:delayFactor:)`: a block on the animation's view, from each channel's
        presented value at the block's window start to `to`. At fraction f (0 when inactive) the
        window starts when the fraction reaches f + delayFactor · (1 − f) and ends with the
        animator; the block follows the animation's timing curve over that window of the fraction
        and its `blend`. Event `addAnimations`. Not on an animation that repeats forever (422 at
        `op`).
      additionalProperties: false
      required: [at, animation, op, to]
      properties:
        at:
          $ref: '#/components/schemas/CommandTime'
        animation:
          $ref: '#/components/schemas/CommandAnimation'
        op:
          const: addAnimations
        to:
          allOf:
            - $ref: '#/components/schemas/ChannelValues'
          minProperties: 1
          description: Target channel values, as an animation's `to` (channels of the animation's view).
        delayFactor:
          type: number
          minimum: 0
          maximum: 1
          default: 0
    RetargetCommand:
      type: object
      title: retarget
      description: |
        Physics animations only (on a block animation an `illegal-command`; on a decay a 422 at
        `op`): the new target of the animation's channel. While moving the motion continues from
        its exact state on its time grid (event `retarget`); settled or stopped it restarts from
        rest (events `start` and `retarget`); during a drag it changes the target used after the
        release; during an autostart's delay the target the motion will start toward.
      additionalProperties: false
      required: [at, animation, op, to]
      properties:
        at:
          $ref: '#/components/schemas/CommandTime'
        animation:
          $ref: '#/components/schemas/CommandAnimation'
        op:
          const: retarget
        to:
          description: The new target, in the channel's shape, or a one-entry map naming the animation's channel.
          oneOf:
            - type: number
            - type: array
              items:
                $ref: '#/components/schemas/ChannelNumber'
            - type: object
              minProperties: 1
              maxProperties: 1
        velocity:
          description: Replaces the velocity (channel units per second, the channel's shape); kept when absent.
          oneOf:
            - type: number
            - type: array
              items: {type: number}
    DragCommand:
      type: object
      title: drag
      description: |
        Physics animations only (on a block animation an `illegal-command`): at `at` the channel
        jumps to the first sample's value (`grab`), follows the samples' linear interpolation with
        forces suspended, and at the last sample (`release`) forces resume with the least-squares
        velocity of the samples of the last 0.1 s (the last segment's slope with fewer than three).
        In any state; on a settled, stopped or not yet started animation it starts it.
      additionalProperties: false
      required: [at, animation, op, samples]
      properties:
        at:
          $ref: '#/components/schemas/CommandTime'
        animation:
          $ref: '#/components/schemas/CommandAnimation'
        op:
          const: drag
        samples:
          type: array
          minItems: 1
          maxItems: 100000
          description: |
            `[t, value…]`: absolute times ≥ `at`, ≤ 3600, strictly increasing; as many values as
            the channel has components, in the channel's ranges (422 otherwise).
          items:
            type: array
            minItems: 2
            items: {type: number}
    Interaction:
      type: object
      description: |
        A percent-driven interactive transition (UIPercentDrivenInteractiveTransition; docs/rules.md "Interaction",
        rule 19). The listed animators are `paused` at fraction 0 from t = 0 (event `pause`
        without `command`; `autostart` and `delay` ignored); percent (0 until the first update or
        sample) sets their fraction. The release — `end.at`, or the last gesture sample's time —
        emits `interactionFinish` or `interactionCancel` and runs them from the presented value to
        the end, or reversed back to the start, along `completionCurve` in
        (1 − p) · duration / completionSpeed (p · … for a cancel). Without a release they stay
        paused. Either `updates`/`end` or `gesture` (both: 422 at `gesture`). Interaction steps at
        the time of a command come after it.
      additionalProperties: false
      required: [animations]
      not:
        anyOf:
          - required: [gesture, updates]
          - required: [gesture, end]
      properties:
        animations:
          type: array
          minItems: 1
          uniqueItems: true
          description: |
            Ids of block animations (a physics animation, an unknown id, a repeat or an animation
            that repeats forever is a 422).
          items: {type: string}
        updates:
          type: array
          maxItems: 100000
          default: []
          description: Percent steps; times non-decreasing, each in [0, 3600].
          items:
            type: object
            additionalProperties: false
            required: [at, percent]
            properties:
              at:
                type: number
                minimum: 0
                maximum: 3600
              percent:
                type: number
                minimum: 0
                maximum: 1
        end:
          type: object
          additionalProperties: false
          required: [at]
          description: The release; `at` not before the last update.
          properties:
            at:
              type: number
              minimum: 0
              maximum: 3600
            action:
              type: string
              enum: [finish, cancel]
              default: finish
        gesture:
          oneOf:
            - $ref: '#/components/schemas/PanGesture'
            - $ref: '#/components/schemas/PinchGesture'
        completionSpeed:
          type: number
          exclusiveMinimum: 0
          default: 1
          description: The longest listed active duration / completionSpeed must be ≤ 3600 (422).
        completionCurve:
          allOf:
            - $ref: '#/components/schemas/Timing'
          default: easeInOut
          description: Any non-spring timing (a spring is a 422).
    PanGesture:
      type: object
      title: pan
      description: |
        Percent = translation / `distance` clamped to [0, 1]; the release at the last sample
        finishes when the last percent is strictly above `threshold`, else cancels.
      additionalProperties: false
      required: [kind, distance, samples]
      properties:
        kind:
          const: pan
        distance:
          type: number
          exclusiveMinimum: 0
          description: Points of translation (along the dismiss direction) that complete the transition.
        threshold:
          type: number
          minimum: 0
          maximum: 1
          default: 0.5
        samples:
          type: array
          minItems: 1
          maxItems: 100000
          description: '`[t, translation]`, times non-decreasing in [0, 3600], translation within ±1e15.'
          items:
            type: array
            prefixItems:
              - type: number
              - type: number
            minItems: 2
            maxItems: 2
    PinchGesture:
      type: object
      title: pinch
      description: |
        Percent = 1 − scale / first scale, clamped to [0, 1]; the release at the last sample
        cancels when the last |velocity| < 5 and the last percent ≤ 0.3, else finishes.
      additionalProperties: false
      required: [kind, samples]
      properties:
        kind:
          const: pinch
        samples:
          type: array
          minItems: 1
          maxItems: 100000
          description: |
            `[t, scale, velocity]`, times non-decreasing in [0, 3600], scales in [0, 1e15] (the first
            > 0), velocities within ±1e15.
          items:
            type: array
            prefixItems:
              - type: number
              - type: number
                minimum: 0
              - type: number
            minItems: 3
            maxItems: 3
    Transition:
      type: object
      description: |
        A transition preset (docs/rules.md "Presets", rule 25), expanded into `views`,
        `animations` and, where needed, `commands` and `interaction` before rendering:
        `bouncePresent`, `slideDismiss`, `zoomPush`, `zoomPop`, `dropDismiss` (the keyframed
        fall), `crossDissolve`, `swipeUpDismiss` (interactive: a pan), `pane` (physics: an
        attachment driven by `drag` and toggled by `retarget`). The other members are the preset's
        parameters: `GET /v1/presets` lists them with their defaults and documents each expansion
        exactly. An unknown preset or parameter is a 422 at it; a `null` parameter takes its
        default. `?expand=true` returns the expansion under `expanded`.
      required: [preset, container]
      additionalProperties: true
      properties:
        preset:
          type: string
          enum: [bouncePresent, slideDismiss, zoomPush, zoomPop, dropDismiss, crossDissolve, swipeUpDismiss, pane]
        container:
          type: array
          description: |
            `[x, y, w, h]`, the container's frame in the coordinate space of the reported channels
            (UIKit's `containerView.bounds` is `[0, 0, w, h]`); w, h > 0, every number within
            ±2.5e14.
          items:
            type: number
            minimum: -2.5e+14
            maximum: 2.5e+14
          minItems: 4
          maxItems: 4
    PresetCatalogue:
      type: object
      description: The body of `GET /v1/presets` (docs/rules.md rule 25).
      additionalProperties: false
      required: [presets]
      properties:
        presets:
          type: array
          description: Every preset, in the order of the list in docs/rules.md "Presets".
          items:
            type: object
            additionalProperties: false
            required: [name, description, parameters]
            properties:
              name:
                type: string
                enum: [bouncePresent, slideDismiss, zoomPush, zoomPop, dropDismiss, crossDissolve, swipeUpDismiss, pane]
              description:
                type: string
                description: Exactly what the preset expands into (views, animations, commands, interaction).
              parameters:
                type: object
                description: Parameter name → its default and description.
                additionalProperties:
                  type: object
                  additionalProperties: false
                  required: [default, description]
                  properties:
                    default:
                      description: |
                        The value used when the parameter is absent or `null` (any JSON value; `null`:
                        computed from the container or other parameters, as the description says).
                    description:
                      type: string
    ChannelValues:
      type: object
      description: |
        Channel name → value. Built-in channels have fixed shapes; any other name is a custom
        channel: a number or an array of 1 to 64 numbers, interpolated component-wise. `alpha` and
        colour components lie in [0, 1], `cornerRadius` ≥ 0, every number within ±1e15 (422
        otherwise). A `null` member is absent.
      properties:
        frame:
          $ref: '#/components/schemas/Rect'
        bounds:
          $ref: '#/components/schemas/Rect'
        center:
          $ref: '#/components/schemas/Point'
        alpha:
          type: number
          minimum: 0
          maximum: 1
          description: Opacity; default 1 when animated without being given.
        cornerRadius:
          type: number
          minimum: 0
          maximum: 1.0e+15
          description: Default 0 when animated without being given.
        backgroundColor:
          $ref: '#/components/schemas/Color'
        transform:
          $ref: '#/components/schemas/Transform'
      additionalProperties:
        $ref: '#/components/schemas/CustomChannel'
    View:
      description: |
        A view's starting channels. A view gives `frame` or `center`/`bounds`, never both (422);
        `center` may come without `bounds`. Geometry and custom channels that an animation targets
        must be given here; `alpha`, `cornerRadius`, `backgroundColor` and `transform` start at their
        defaults when not given.
      allOf:
        - $ref: '#/components/schemas/ChannelValues'
      not:
        anyOf:
          - required: [frame, center]
          - required: [frame, bounds]
    CustomChannel:
      description: |
        A custom channel (CSS properties, shader uniforms, anything numeric): its shape is fixed by
        the view — a number, or an array of 1 to 64 numbers — and every target must have it.
      oneOf:
        - $ref: '#/components/schemas/ChannelNumber'
        - type: array
          minItems: 1
          maxItems: 64
          items:
            $ref: '#/components/schemas/ChannelNumber'
    ChannelNumber:
      type: number
      minimum: -1.0e+15
      maximum: 1.0e+15
      description: |
        A channel number: within ±1e15 (422 otherwise), so no interpolation or overshoot between two
        values can overflow. For transforms the bound applies to the composed matrix's entries.
    Rect:
      type: array
      description: '`[x, y, w, h]` in points.'
      items:
        $ref: '#/components/schemas/ChannelNumber'
      minItems: 4
      maxItems: 4
    Point:
      type: array
      description: '`[x, y]` in points.'
      items:
        $ref: '#/components/schemas/ChannelNumber'
      minItems: 2
      maxItems: 2
    Color:
      type: array
      description: '`[r, g, b, a]`, components in 0…1 (422 otherwise). Default [0, 0, 0, 0].'
      items:
        type: number
        minimum: 0
        maximum: 1
      minItems: 4
      maxItems: 4
    Transform:
      description: |
        A 2-D affine transform in one of three forms (mixing them is a 422). Reported as the matrix
        `[a, b, c, d, tx, ty]` (CGAffineTransform's field order, CSS `matrix()`). The default
        transform is the identity given as components.
      oneOf:
        - $ref: '#/components/schemas/TransformComponents'
        - $ref: '#/components/schemas/TransformMatrix'
        - $ref: '#/components/schemas/TransformOps'
    TransformComponents:
      type: object
      title: Components
      description: |
        Scale, then rotate, then translate: a = sx·cosθ, b = sx·sinθ, c = −sy·sinθ, d = sy·cosθ,
        (tx, ty) = translation. `{}` is the identity. With a singular end (a zero scale), two
        component ends interpolate their components.
      additionalProperties: false
      properties:
        translation:
          $ref: '#/components/schemas/Point'
        scale:
          type: array
          description: '`[sx, sy]`.'
          items:
            $ref: '#/components/schemas/ChannelNumber'
          minItems: 2
          maxItems: 2
          default: [1, 1]
        rotation:
          type: number
          description: Radians; positive turns clockwise on screen.
          default: 0
    TransformMatrix:
      type: object
      title: Matrix
      additionalProperties: false
      required: [matrix]
      properties:
        matrix:
          type: array
          description: '`[a, b, c, d, tx, ty]`: x′ = a·x + c·y + tx, y′ = b·x + d·y + ty.'
          items:
            $ref: '#/components/schemas/ChannelNumber'
          minItems: 6
          maxItems: 6
    TransformOps:
      type: object
      title: Operations
      description: |
        Composed in `CGAffineTransformConcat` order (the first op is applied first) into a matrix,
        which is what this form counts as afterwards (singular ends, `rotationPath`).
      additionalProperties: false
      required: [ops]
      properties:
        ops:
          type: array
          items:
            $ref: '#/components/schemas/TransformOp'
    TransformOp:
      description: Exactly one member (422 otherwise).
      oneOf:
        - type: object
          additionalProperties: false
          required: [translate]
          properties:
            translate:
              $ref: '#/components/schemas/Point'
        - type: object
          additionalProperties: false
          required: [rotate]
          properties:
            rotate:
              type: number
              description: Radians.
        - type: object
          additionalProperties: false
          required: [scale]
          properties:
            scale:
              type: array
              items: {type: number}
              minItems: 2
              maxItems: 2
    ChannelValue:
      description: One channel value, in the shape of its channel (for `values`).
      oneOf:
        - type: number
        - type: array
          items: {type: number}
        - $ref: '#/components/schemas/Transform'
    Animation:
      type: object
      description: |
        One UIView animation with its own running UIViewPropertyAnimator (docs/rules.md "Animations", rules
        7–12): exactly one of `to`, `keyframes` and `values` (with `channel`). `duration` is required
        except with a spring timing; the UIKit spring (`dampingRatio` alone) requires it, every
        other spring set refuses it (422) and runs for its settling duration. Spring timings drive
        `to` animations only. Unknown members are 422. With `dynamics` it is a physics animation
        (`to` with one channel, or `channel` for a decay; see `Dynamics`).
      additionalProperties: false
      required: [view]
      oneOf:
        - title: Block animation
          required: [to]
          not:
            anyOf:
              - required: [dynamics]
              - required: [channel]
        - title: UIView keyframes
          required: [keyframes]
        - title: CAKeyframeAnimation
          required: [values, channel]
        - title: Physics animation
          required: [dynamics]
      dependentRequired:
        keyTimes: [values]
        timingFunctions: [values]
        tensionValues: [values]
        continuityValues: [values]
        biasValues: [values]
      dependentSchemas:
        calculationMode:
          not:
            required: [to]
      properties:
        id:
          type: string
          description: Name for events and `animators`; default `a<index>`. Unique (422).
        view:
          type: string
          description: A key of `views` (422 when unknown).
        to:
          allOf:
            - $ref: '#/components/schemas/ChannelValues'
          minProperties: 1
          description: |
            Target channel values (the model values after the animation), each in its channel's
            shape; the animation starts from each channel's presented value (`replace`) or model
            value (`additive`).
        keyframes:
          type: array
          minItems: 1
          description: |
            `addKeyframeWithRelativeStartTime:relativeDuration:animations:`, grouped per channel:
            each channel's keyframes start at its presented value, a keyframe starting before the
            previous one of that channel ends is delayed and keeps its duration (clipped at 1), a
            channel first named later holds until then, and the last value holds to 1.
          items:
            $ref: '#/components/schemas/Keyframe'
        values:
          type: array
          minItems: 1
          description: |
            A CAKeyframeAnimation on `channel`: `values[0]` is the start; each value in the
            channel's shape. One value is held.
          items:
            $ref: '#/components/schemas/ChannelValue'
        channel:
          type: string
          description: The channel a `values` animation animates (given by the view, or a built-in with a default).
        keyTimes:
          type: array
          description: |
            Relative times of `values` (not in the paced modes). Ignored with a warning (even spacing)
            when the count does not fit the mode (linear, cubic: one per value; discrete: that or one
            more), when they do not start at 0 or end at 1, or when they decrease.
          items: {type: number}
        timingFunctions:
          type: array
          description: |
            One Bézier per segment (n − 1; another count is ignored with a warning); not in the paced
            modes.
          items:
            $ref: '#/components/schemas/BezierTiming'
        tensionValues:
          type: array
          description: Kochanek–Bartels tension per value (cubic modes); another count than n gives zeros and a warning.
          items: {type: number}
        continuityValues:
          type: array
          description: Kochanek–Bartels continuity per value (cubic modes); another count than n gives zeros and a warning.
          items: {type: number}
        biasValues:
          type: array
          description: Kochanek–Bartels bias per value (cubic modes); another count than n gives zeros and a warning.
          items: {type: number}
        calculationMode:
          type: string
          enum: [linear, discrete, paced, cubic, cubicPaced]
          default: linear
          description: |
            `keyframes` and `values` only. Paced modes ignore `keyTimes`, `timingFunctions` and
            `timing`; `cubicPaced` measures the exact arc length: each segment split where a
            component of the derivative changes sign, 8-point Gauss–Legendre on each piece.
        duration:
          type: number
          exclusiveMinimum: 0
          maximum: 3600
          description: Seconds of one pass.
        delay:
          type: number
          minimum: 0
          maximum: 3600
          default: 0
          description: |
            Seconds after the autostart before the animation takes effect; the animator is running
            at fraction 0 meanwhile (a physics animation: inactive, starting at the delay's end).
            Not applied by a `start` command (it has its own) nor to an interaction's animations.
        timing:
          $ref: '#/components/schemas/Timing'
          default: easeInOut
          description: |
            The curve's timing (string or object). Default `easeInOut`, also for `values`. With
            keyframes it maps the whole keyframe time first (not in the paced modes); springs only
            with `to`.
        repeatCount:
          oneOf:
            - type: number
              minimum: 0
            - const: infinite
          default: 1
          description: |
            Repeats, fractions allowed; 0 plays once. `infinite` needs `until`. `repeatCount` ×
            `duration` must be ≤ 3600.
        autoreverses:
          type: boolean
          default: false
          description: One repeat is a pass forward then back (2 · `duration`); the channel then shows `to`.
        autostart:
          type: boolean
          default: true
          description: |
            False leaves the animator `inactive` (fraction 0, no events) and the animation without
            effect until a command (`start`, `pause`, `fraction`, …; a physics `retarget` or
            `drag`) drives it. Ignored for an animation an `interaction` lists.
        pausesOnCompletion:
          type: boolean
          default: false
          description: |
            Reaching the end (or, reversed, the start) is a `pause` event and the `paused` state
            instead of a completion.
        scrubsLinearly:
          type: boolean
          default: true
          description: |
            While paused (after `fraction` or an interaction update) the animation shows progress
            f when true, timing(f) when false; resuming along the curve after a linear scrub jumps
            to timing(f), with a warning. No effect on physics animations.
        blend:
          type: string
          enum: [replace, additive]
          default: replace
          description: |
            `replace`: from the channel's presented value at the effective start, earlier animations
            stop contributing (beginFromCurrentState). `additive`: adds (value − model) to the
            channel without it (UIKit's additive animators; transforms add decomposed components,
            scales multiply).
        rotationPath:
          type: string
          enum: [shortest, direct]
          default: shortest
          description: |
            `to` animations only (keyframes and `values` always take the shortest arc). `direct`
            interpolates θ as given: the components' `rotation`, the sum of the `rotate` ops, or
            atan2(b, a) of a matrix (docs/rules.md rule 6).
        dynamics:
          $ref: '#/components/schemas/Dynamics'
        velocity:
          description: A physics animation's initial velocity, channel units per second, shaped as its channel.
          oneOf:
            - type: number
            - type: array
              items:
                type: number
    Dynamics:
      type: object
      additionalProperties: false
      required: [model]
      description: |
        The forces of a physics animation (docs/rules.md "Physics animations", rules 20–21). Members that do not belong
        to the model are accepted only where listed for it; ranges are 422.
      properties:
        model:
          enum: [spring, attachment, snap, popSpring, decay]
        mass:
          type: number
          exclusiveMinimum: 0
          default: 1
          description: spring
        stiffness:
          type: number
          exclusiveMinimum: 0
          default: 100
          description: spring
        damping:
          type: number
          minimum: 0
          description: 'spring: force per unit velocity (default 10); attachment and snap: the damping ratio (default 0, snap 0.5).'
        frequency:
          type: number
          exclusiveMinimum: 0
          description: attachment, Hz (required)
        bounciness:
          type: number
          minimum: 0
          default: 4
          description: popSpring
        speed:
          type: number
          minimum: 0
          default: 12
          description: popSpring
        deceleration:
          type: number
          exclusiveMinimum: 0
          exclusiveMaximum: 1
          default: 0.998
          description: decay, per millisecond
        integrator:
          enum: [exact, euler, rk4]
          default: exact
        tickRate:
          type: number
          exclusiveMinimum: 0
          maximum: 1000
          default: 60
          description: euler and rk4 ticks per second
        restSpeed:
          type: number
          exclusiveMinimum: 0
          description: units per second; default 5 · threshold (euler 0.05)
        restDistance:
          type: number
          exclusiveMinimum: 0
          description: default threshold / 2 (euler 1)
        threshold:
          type: number
          exclusiveMinimum: 0
          description: POP's per-property threshold, default 0.01 for alpha, else 1; a decay stops below 5 · threshold per second
    Keyframe:
      type: object
      additionalProperties: false
      required: [start, duration, to]
      description: '`start + duration` must be ≤ 1 (422).'
      properties:
        start:
          type: number
          minimum: 0
          maximum: 1
        duration:
          type: number
          minimum: 0
          maximum: 1
          description: 0 makes a jump.
        to:
          allOf:
            - $ref: '#/components/schemas/ChannelValues'
          minProperties: 1
    BezierTiming:
      description: |
        A CAMediaTimingFunction: a named Bézier or a `cubicBezier`, as an object or a CSS string
        (`linear`, `ease`, `ease-in`, `ease-out`, `ease-in-out`, UIKit names, `cubic-bezier(…)`).
        Steps, `linear(…)` and springs are a 422.
      oneOf:
        - type: string
          examples: [linear, easeIn, 'cubic-bezier(0.25, 0.1, 0.25, 1)']
        - $ref: '#/components/schemas/NamedTiming'
        - $ref: '#/components/schemas/CubicBezierTiming'
    RenderResponse:
      type: object
      description: |
        Columnar: one array per channel with one value per frame, in frame order. Members in the
        order shown; numbers finite, in shortest round-trip form.
      additionalProperties: false
      required: [fps, duration, frameCount, t, views, events, animators, warnings]
      properties:
        fps:
          type: [number, 'null']
          description: The grid's rate; null with `at`.
        duration:
          type: number
          description: |
            `end`: `until`, or the latest of every command's `at` and the time each animator
            settles (0 when none starts).
        frameCount:
          type: integer
          minimum: 1
        t:
          type: array
          description: Frame times.
          items: {type: number}
        views:
          $ref: '#/components/schemas/ViewFrames'
        velocity:
          allOf:
            - $ref: '#/components/schemas/ViewFrames'
          description: |
            Only with `velocities: true`: per channel component (per matrix entry for transforms),
            d(value)/dt in units per second, the right-hand second-order one-sided difference with a
            1 µs step; exactly 0 where the value is held.
        events:
          type: array
          description: |
            Every state change at its exact time (not rounded to a frame, also after the last
            frame), sorted by time; at one instant the initial states (autostart `start`, an
            interaction's `pause`), then events caused by commands in command order, then
            completions, then interaction releases, one animator's events in the order they took
            effect, remaining ties by animation index.
          items:
            $ref: '#/components/schemas/RenderEvent'
        animators:
          type: object
          description: One entry per animation id, in array order.
          additionalProperties:
            $ref: '#/components/schemas/AnimatorFrames'
        warnings:
          type: array
          description: |
            Always present. Structure Core Animation ignores (`keyTimes`, `timingFunctions`, TCB
            counts), singular transforms interpolated discretely, UIKit's spring clamps, and a
            resume that jumps from a linear scrub to the curve (at `/commands/i`).
          items:
            $ref: '#/components/schemas/Warning'
        expanded:
          type: object
          description: |
            Only with `?expand=true`: the request as rendered — after a `transition` preset's
            expansion (its `views`, `animations`, `commands`, `interaction` in `transition`'s
            place, the other members as given), else the request itself.
    ViewFrames:
      type: object
      description: |
        View → channel → one value per frame. Views in request order, each with the channels it
        gave (in its order) then the default channels its animations target (in order of first
        targeting).
      additionalProperties:
        type: object
        additionalProperties:
          type: array
          items:
            $ref: '#/components/schemas/FrameValue'
    FrameValue:
      description: |
        A number for scalar channels (`alpha`, `cornerRadius`, scalar custom channels); an array
        for array channels (`frame`, `bounds` and `backgroundColor` 4, `center` 2, custom channels
        their length) and for transforms (`[a, b, c, d, tx, ty]`).
      oneOf:
        - type: number
        - type: array
          items: {type: number}
    RenderEvent:
      type: object
      description: |
        One state change (docs/rules.md rule 18). Members in the order `t`, `animation`, `type`,
        `command`, `position`, `withoutFinishing`, `reversed`.
      additionalProperties: false
      required: [t, animation, type]
      properties:
        t:
          type: number
          description: Seconds, exact.
        animation:
          type: string
          description: The animation's id.
        type:
          type: string
          enum: [start, pause, stop, reverse, continue, addAnimations, retarget, grab, release, interactionFinish, interactionCancel, completion]
          description: |
            `start`: an autostart (at 0; a physics animation at the end of its delay), a `start`
            command (also a resume), a physics restart by `retarget`. `pause`: a `pause` command, a
            `fraction` that pauses, `pausesOnCompletion` reaching an end, an interaction's initial
            pause. `stop`, `reverse`, `continue`, `addAnimations`, `retarget`: those commands.
            `grab` and `release`: a `drag`'s first and last sample. `interactionFinish`,
            `interactionCancel`: the interaction's release. `completion`: a run reaching its end
            (or, reversed, its start), a `finish` command, a physics animation coming to rest.
        command:
          type: integer
          minimum: 0
          description: |
            The index in `commands` of the command that caused it (a `release`: its `drag`'s);
            absent for autostarts, natural completions, the `pause` of `pausesOnCompletion` and
            interaction events.
        position:
          type: string
          enum: [start, end, current]
          description: On `completion` only.
        withoutFinishing:
          type: boolean
          description: On `stop` only (always true for a physics animation).
        reversed:
          type: boolean
          description: On `reverse` only.
    AnimatorFrames:
      type: object
      additionalProperties: false
      required: [fraction, state, reversed]
      description: One value per frame each.
      properties:
        fraction:
          type: [array, 'null']
          description: |
            The time fraction over the whole run, repeats included: 0 during a delay, as set while
            paused, linear in time over a `continue` glide or an interaction release, 1 (or 0)
            once completed at the end (start); 0 for an animation that repeats forever. Null for a
            physics animation, which has no time fraction (rule 18).
          items:
            type: number
            minimum: 0
            maximum: 1
        state:
          type: array
          description: |
            docs/rules.md rule 13's states. A physics animation is `running` while it moves or is
            dragged and `inactive` before its start, at rest and after a stop.
          items:
            type: string
            enum: [inactive, running, paused, stopped]
        reversed:
          type: array
          description: |
            `isReversed`: set by `reverse` commands and an interaction cancel; always false for a
            physics animation.
          items: {type: boolean}
    RenderCSV:
      type: string
      description: |
        `text/csv; charset=utf-8`: a header `t` then one column per channel component,
        `<view>.<channel><suffix>` in the order of the JSON `views`: `.x,.y,.w,.h` for `frame` and
        `bounds`, `.r,.g,.b,.a` for `backgroundColor`, `.a,.b,.c,.d,.tx,.ty` for transforms, `.0`,
        `.1`, … for `center` and array custom channels, no suffix for scalars (a name containing a
        comma, a double quote, CR or LF is quoted as in RFC 4180); then one row per frame. Every line
        ends with LF. No velocities, events, animators or warnings.
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
        RFC 9457 problem details. Further members may follow: `illegal-command` problems add
        `state` and `allowed`.
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
            - https://segue.dev/problems/illegal-command
            - https://segue.dev/problems/invalid-query
          description: |
            `https://segue.dev/problems/<kind>`. `illegal-command` (422): a render command the
            animator's state does not accept. `invalid-query` (400): a render `expand` query that
            is not `true` or `false`, or `expand=true` with a non-JSON format.
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
        state:
          type: string
          enum: [inactive, running, paused, stopped]
          description: '`illegal-command` only: the state of the animator the command met.'
        allowed:
          type: array
          description: '`illegal-command` only: every op accepted in that state without error, no-ops included.'
          items:
            type: string
            enum: [start, pause, stop, finish, reverse, fraction, continue, addAnimations, retarget, drag]

"""#
}
