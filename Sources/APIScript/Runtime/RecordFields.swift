/// The bytes that the string fields of records read from one response body share: the body.
package protocol RecordText: AnyObject, Sendable {
    /// The string of the `count` bytes at `offset`, which the reader has checked are valid UTF-8
    /// with no escapes.
    func string(at offset: Int, count: Int) -> String
}

/// One field of a record read from a response body, in 16 bytes: a scalar in place, a string
/// still in the body, or anything else in a box of its own.
package enum RecordField {
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null
    /// A string that is the `count` bytes at `offset` of the body, made when it is read.
    case text(offset: UInt32, count: UInt32)
    /// A value made while reading: a string with escapes, an array, a dictionary, a record.
    case boxed(FieldBox)

    /// The field for `value`.
    package init(_ value: Value) {
        switch value {
        case .int(let number): self = .int(number)
        case .double(let number): self = .double(number)
        case .bool(let flag): self = .bool(flag)
        case .null: self = .null
        default: self = .boxed(FieldBox(value))
        }
    }
}

/// A field value that is not a scalar, for ``RecordField``.
package final class FieldBox {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// What ``RecordFields`` keeps before its fields.
package struct RecordFieldsHeader {
    let text: any RecordText
    let count: Int
}

/// The fields of a record read from a response body, in one allocation.
///
/// A response of many records is read with one allocation per record: numbers, Bools and nil in
/// place, strings as ranges of the body, which the records keep alive and share, so a string's
/// bytes are held once (in the body) until a script reads the field. Immutable once made.
package final class RecordFields: ManagedBuffer<RecordFieldsHeader, RecordField> {
    /// Makes the fields of one record; `initialize` must initialize exactly `count` fields.
    package static func make(
        text: any RecordText, count: Int, initialize: (UnsafeMutablePointer<RecordField>) -> Void
    ) -> RecordFields {
        let buffer = create(minimumCapacity: count) { _ in RecordFieldsHeader(text: text, count: count) }
        let fields = unsafeDowncast(buffer, to: RecordFields.self)
        fields.withUnsafeMutablePointerToElements(initialize)
        return fields
    }

    deinit {
        _ = withUnsafeMutablePointers { header, elements in elements.deinitialize(count: header.pointee.count) }
    }

    /// Replaces the field at `index` (less than ``count``): only while the record is being read,
    /// before anything else holds it.
    package func store(_ field: RecordField, at index: Int) {
        withUnsafeMutablePointerToElements { $0[index] = field }
    }

    /// How many fields there are.
    var count: Int { header.count }

    /// The value of the field at `index`, which must be less than ``count``.
    func value(at index: Int) -> Value {
        withUnsafeMutablePointers { header, elements in
            switch elements[index] {
            case .int(let number): .int(number)
            case .double(let number): .double(number)
            case .bool(let flag): .bool(flag)
            case .null: .null
            case .text(let offset, let count): .string(header.pointee.text.string(at: Int(offset), count: Int(count)))
            case .boxed(let box): box.value
            }
        }
    }

    /// Whether the field at `index` (less than ``count``) is an array, a dictionary or a record.
    func holdsContainer(at index: Int) -> Bool {
        withUnsafeMutablePointerToElements { elements in
            if case .boxed(let box) = elements[index] { box.value.isContainer } else { false }
        }
    }

    /// The fields that are arrays, dictionaries or records.
    func containers() -> [Value] {
        withUnsafeMutablePointers { header, elements in
            var found: [Value] = []
            for index in 0..<header.pointee.count {
                if case .boxed(let box) = elements[index], box.value.isContainer { found.append(box.value) }
            }
            return found
        }
    }
}
