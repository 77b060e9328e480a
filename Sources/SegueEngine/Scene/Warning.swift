/// Something a request asks that Core Animation or UIKit would quietly ignore, clamp or reinterpret
/// (docs/rules.md rule 12): reported in a response's `warnings`, never failing the request.
///
/// One type for every layer, told apart by what `Subject` locates: the engine locates a warning in
/// its own terms (`SceneSubject`: an animation's channel, a command; `KeyframeSubject`: a member of
/// a keyframe track), which it can do without JSON; the codec, which knows where each of those
/// came from in the request, relocates it to a JSON Pointer (`relocated(_:)`), the form every
/// response writes.
public struct Warning<Subject: Sendable & Equatable>: Sendable, Equatable {
    /// What the warning is about.
    public var subject: Subject
    /// Why, in a sentence a developer can act on.
    public var detail: String

    public init(subject: Subject, detail: String) {
        self.subject = subject
        self.detail = detail
    }

    /// The same warning about the place `locate` gives for its subject.
    public func relocated<Place>(_ locate: (Subject) -> Place) -> Warning<Place> {
        Warning<Place>(subject: locate(subject), detail: detail)
    }
}

/// Where in a scene a compiler warning is.
public enum SceneSubject: Sendable, Equatable {
    /// A channel an animation animates.
    case target(animation: Int, channel: String)
    /// A channel the block of an `addAnimations` command animates.
    case addedTarget(command: Int, channel: String)
    case command(Int)
    case interaction
}

/// Where in a keyframe track a warning is: the member at fault, as spelled in docs/rules.md
/// "Animations", and its element when one is (a singular transform in `values`).
public struct KeyframeSubject: Sendable, Equatable {
    public enum Member: String, Sendable {
        case values, keyTimes, timingFunctions, tensionValues, continuityValues, biasValues
    }

    public var member: Member
    public var index: Int?

    public init(_ member: Member, index: Int? = nil) {
        self.member = member
        self.index = index
    }
}
