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
    public var pointerType: String?
    /// Where the sample's object starts in the file.
    public var location: SourceLocation

    // The optional numbers are stored as plain values with a bit each saying whether they are
    // present (an absent one is stored as 0): 8 bytes each instead of 16, so a stroke of a
    // million samples takes about 150 MB, not 250.
    private var present: UInt16 = 0
    private var storedPressure = 0.0
    private var storedTiltX = 0.0
    private var storedTiltY = 0.0
    private var storedTwist = 0.0
    private var storedAltitudeAngle = 0.0
    private var storedAzimuthAngle = 0.0
    private var storedTangentialPressure = 0.0
    private var storedWidth = 0.0
    private var storedHeight = 0.0
    private var storedTimeStamp = 0.0
    private var storedForce = 0.0
    private var storedMaxForce = 0.0
    private var storedButtons = 0

    public var pressure: Double? {
        get { Self.value(0, present, storedPressure) }
        set { Self.store(newValue, 0, &present, &storedPressure) }
    }
    public var tiltX: Double? {
        get { Self.value(1, present, storedTiltX) }
        set { Self.store(newValue, 1, &present, &storedTiltX) }
    }
    public var tiltY: Double? {
        get { Self.value(2, present, storedTiltY) }
        set { Self.store(newValue, 2, &present, &storedTiltY) }
    }
    public var twist: Double? {
        get { Self.value(3, present, storedTwist) }
        set { Self.store(newValue, 3, &present, &storedTwist) }
    }
    public var altitudeAngle: Double? {
        get { Self.value(4, present, storedAltitudeAngle) }
        set { Self.store(newValue, 4, &present, &storedAltitudeAngle) }
    }
    public var azimuthAngle: Double? {
        get { Self.value(5, present, storedAzimuthAngle) }
        set { Self.store(newValue, 5, &present, &storedAzimuthAngle) }
    }
    public var tangentialPressure: Double? {
        get { Self.value(6, present, storedTangentialPressure) }
        set { Self.store(newValue, 6, &present, &storedTangentialPressure) }
    }
    public var width: Double? {
        get { Self.value(7, present, storedWidth) }
        set { Self.store(newValue, 7, &present, &storedWidth) }
    }
    public var height: Double? {
        get { Self.value(8, present, storedHeight) }
        set { Self.store(newValue, 8, &present, &storedHeight) }
    }
    public var timeStamp: Double? {
        get { Self.value(9, present, storedTimeStamp) }
        set { Self.store(newValue, 9, &present, &storedTimeStamp) }
    }
    public var force: Double? {
        get { Self.value(10, present, storedForce) }
        set { Self.store(newValue, 10, &present, &storedForce) }
    }
    public var maxForce: Double? {
        get { Self.value(11, present, storedMaxForce) }
        set { Self.store(newValue, 11, &present, &storedMaxForce) }
    }
    public var buttons: Int? {
        get { Self.value(12, present, storedButtons) }
        set { Self.store(newValue, 12, &present, &storedButtons) }
    }

    /// `slot` when bit `bit` of `present` says it is there.
    private static func value<T>(_ bit: Int, _ present: UInt16, _ slot: T) -> T? {
        present & 1 << bit != 0 ? slot : nil
    }

    /// Stores `value` in `slot` (0 when absent) and its presence in bit `bit` of `present`.
    private static func store<T: Numeric>(_ value: T?, _ bit: Int, _ present: inout UInt16, _ slot: inout T) {
        slot = value ?? 0
        present = value == nil ? present & ~(1 << bit) : present | 1 << bit
    }

    public init(x: Double, y: Double, pressure: Double? = nil, tiltX: Double? = nil, tiltY: Double? = nil,
                twist: Double? = nil, altitudeAngle: Double? = nil, azimuthAngle: Double? = nil,
                tangentialPressure: Double? = nil, width: Double? = nil, height: Double? = nil,
                pointerType: String? = nil, timeStamp: Double? = nil, buttons: Int? = nil,
                force: Double? = nil, maxForce: Double? = nil,
                location: SourceLocation = SourceLocation(line: 1, column: 1)) {
        self.x = x
        self.y = y
        self.pointerType = pointerType
        self.location = location
        self.pressure = pressure
        self.tiltX = tiltX
        self.tiltY = tiltY
        self.twist = twist
        self.altitudeAngle = altitudeAngle
        self.azimuthAngle = azimuthAngle
        self.tangentialPressure = tangentialPressure
        self.width = width
        self.height = height
        self.timeStamp = timeStamp
        self.force = force
        self.maxForce = maxForce
        self.buttons = buttons
    }
}
