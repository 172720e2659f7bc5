"""The element types an onnxruntime-web tensor can hold: one table for every module.

Model analysis names a tensor's type with it, the reference builder picks the numpy type, and
the snippet generator picks the JavaScript typed array. Pure: no imports beyond the standard
library, so the live-example code can use it without loading onnx or numpy.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ElementType:
    """One tensor element type, under each name the site needs."""

    name: str  # onnxruntime-web's type string, also used on the pages
    onnx: int  # TensorProto.DataType value (checked against onnx by a unit test)
    numpy: str | None  # numpy dtype name; None where numpy has none (int4)
    js_array: str | None  # typed array the snippet builds from JSON numbers; None: plain array
    js_convert: str | None = None  # how each JSON number becomes an element (int64 -> BigInt)


ELEMENT_TYPES: tuple[ElementType, ...] = (
    ElementType("float32", 1, "float32", "Float32Array"),
    ElementType("float16", 10, "float16", "Float16Array"),
    ElementType("float64", 11, "float64", "Float64Array"),
    ElementType("int8", 3, "int8", "Int8Array"),
    ElementType("uint8", 2, "uint8", "Uint8Array"),
    ElementType("int16", 5, "int16", "Int16Array"),
    ElementType("uint16", 4, "uint16", "Uint16Array"),
    ElementType("int32", 6, "int32", "Int32Array"),
    ElementType("uint32", 12, "uint32", "Uint32Array"),
    ElementType("int64", 7, "int64", "BigInt64Array", "BigInt"),
    ElementType("uint64", 13, "uint64", "BigUint64Array", "BigInt"),
    # onnxruntime-web keeps bool tensors as one byte per element.
    ElementType("bool", 9, "bool", "Uint8Array", "Number"),
    ElementType("string", 8, "str", None),
    ElementType("int4", 22, None, None),
    ElementType("uint4", 21, None, None),
)

BY_NAME: dict[str, ElementType] = {t.name: t for t in ELEMENT_TYPES}
BY_ONNX: dict[int, ElementType] = {t.onnx: t for t in ELEMENT_TYPES}


def is_web_type(name: str) -> bool:
    """Whether an onnxruntime-web tensor can hold elements of this type."""
    return name in BY_NAME
