/// One pointer position with the W3C Pointer Events fields a browser reports. Optional
/// fields are `nil` when absent from the file; the host supplies defaults.
///
/// Units and ranges (as checked by the reader):
/// - `x`, `y`: canvas pixels, finite; x grows to the right, y downwards.
/// - `pressure`: [0, 1]. `tangentialPressure`: [-1, 1].
/// - `tiltX`, `tiltY`: degrees in [-90, 90]. `twist`: degrees in [0, 360).
/// - `altitudeAngle`: radians in [0, π/2]. `azimuthAngle`: radians in [0, 2π).
/// - `width`, `height`: contact size in canvas pixels, >= 0.
/// - `pointerType`: `mouse`, `pen`, `touch` or `eraser` (a pen's eraser end).
/// - `timeStamp`: milliseconds, finite (any origin). `buttons`: bit mask, >= 0.
/// - `force`: >= 0 and `maxForce`: > 0, for devices that report raw force (UIKit style).
public struct PointerSample: Equatable, Sendable {
    public var x: Double
    public var y: Double
    public var pressure: Double?
    public var tiltX: Double?
    public var tiltY: Double?
    public var twist: Double?
    public var altitudeAngle: Double?
    public var azimuthAngle: Double?
    public var tangentialPressure: Double?
    public var width: Double?
    public var height: Double?
    public var pointerType: String?
    public var timeStamp: Double?
    public var buttons: Int?
    public var force: Double?
    public var maxForce: Double?
    /// Where the sample's object starts in the file.
    public var location: SourceLocation

    public init(x: Double, y: Double, pressure: Double? = nil, tiltX: Double? = nil, tiltY: Double? = nil,
                twist: Double? = nil, altitudeAngle: Double? = nil, azimuthAngle: Double? = nil,
                tangentialPressure: Double? = nil, width: Double? = nil, height: Double? = nil,
                pointerType: String? = nil, timeStamp: Double? = nil, buttons: Int? = nil,
                force: Double? = nil, maxForce: Double? = nil,
                location: SourceLocation = SourceLocation(line: 1, column: 1)) {
        self.x = x
        self.y = y
        self.pressure = pressure
        self.tiltX = tiltX
        self.tiltY = tiltY
        self.twist = twist
        self.altitudeAngle = altitudeAngle
        self.azimuthAngle = azimuthAngle
        self.tangentialPressure = tangentialPressure
        self.width = width
        self.height = height
        self.pointerType = pointerType
        self.timeStamp = timeStamp
        self.buttons = buttons
        self.force = force
        self.maxForce = maxForce
        self.location = location
    }
}
