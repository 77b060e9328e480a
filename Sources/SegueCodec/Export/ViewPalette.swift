/// The colours that tell views apart where a view has no `backgroundColor` of its own
/// (docs/exports.md "Colours that tell views apart", rule 44): the view at position i of the
/// request's `views` takes hue (210 + 67·i) mod 360, saturation 65 %, lightness 55 %.
///
/// A step of 67° walks the colour wheel without repeating for 360 views (67 and 360 are coprime),
/// and neighbours in the request are 67° apart, never two shades of one hue. The playground paints
/// its stage with the same hues, so a view has one colour wherever Segue shows it.
enum ViewPalette {
    static let firstHue = 210.0
    static let hueStep = 67.0
    static let saturation = 0.65
    static let lightness = 0.55

    /// The colour of the view at request position `index`, as r, g, b in 0…1.
    static func color(_ index: Int) -> [Double] {
        let hue = (firstHue + hueStep * Double(index % 360)).truncatingRemainder(dividingBy: 360)
        return rgb(hue: hue, saturation: saturation, lightness: lightness)
    }

    /// CSS Color 4 §7.1's HSL to sRGB: each channel f(n) = L − a·max(−1, min(k − 3, 9 − k, 1)),
    /// k = (n + H/30) mod 12, a = S·min(L, 1 − L), for n = 0, 8, 4.
    static func rgb(hue: Double, saturation: Double, lightness: Double) -> [Double] {
        let a = saturation * min(lightness, 1 - lightness)
        return [0.0, 8, 4].map { n in
            let k = (n + hue / 30).truncatingRemainder(dividingBy: 12)
            return lightness - a * max(-1, min(k - 3, 9 - k, 1))
        }
    }
}
