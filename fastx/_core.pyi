"""Type stubs for fastx._core (the compiled kernels). One section per .pxi file."""
from typing import Any

import numpy as np
import numpy.typing as npt

# ---------------------------------------------------------------- _doc.pxi
KIND_ELEMENT: int
KIND_TEXT: int
NODE_FLAGS: dict[str, int]
TAG_IDS: dict[str, int]
TAG_NAMES_BY_ID: dict[int, str]
DROP_TAGS: tuple[str, ...]
LINK_TAGS: tuple[str, ...]
BLOCK_TAGS: tuple[str, ...]

class Doc:
    parser: Any
    n: int
    parent: npt.NDArray[np.int32]
    end: npt.NDArray[np.int32]
    depth: npt.NDArray[np.int32]
    tag: npt.NDArray[np.int32]
    kind: npt.NDArray[np.uint8]
    flags: npt.NDArray[np.uint16]
    text_off: npt.NDArray[np.int64]
    text_len: npt.NDArray[np.int32]
    chars: npt.NDArray[np.int32]
    tags: npt.NDArray[np.int32]
    link_chars: npt.NDArray[np.int32]
    link_tags: npt.NDArray[np.int32]
    punct: npt.NDArray[np.int32]
    words: npt.NDArray[np.int32]
    p_count: npt.NDArray[np.int32]
    leaves: npt.NDArray[np.int32]
    text_nodes: npt.NDArray[np.int32]
    own_chars: npt.NDArray[np.int32]
    ptr: npt.NDArray[np.uint64]
    text_buf: bytes
    title: str
    description: str
    body: int
    url: str | None
    cache: dict
    def __len__(self) -> int: ...
    def text(self, i: int) -> str: ...
    def tag_name(self, i: int) -> str: ...
    def attr(self, i: int, name: str) -> str | None: ...
    def attributes(self, i: int) -> dict[str, str]: ...
    def subtree_text(self, i: int) -> str: ...
    def render_text(self, keep: npt.NDArray[np.uint8]) -> str: ...
    def render_html(self, keep: npt.NDArray[np.uint8]) -> str: ...

def build_doc(parser: Any, title_fallback: str = ..., url: str | None = ...) -> Doc: ...

# ---------------------------------------------------------------- _cetd.pxi
def text_density(d: Doc) -> npt.NDArray[np.float64]: ...
def composite_text_density(d: Doc, hybrid_chars: npt.ArrayLike | None = ...) -> npt.NDArray[np.float64]: ...
def hybrid_chars(d: Doc, positions: npt.ArrayLike) -> npt.NDArray[np.float64]: ...
def density_sum(d: Doc, density: npt.ArrayLike) -> npt.NDArray[np.float64]: ...
def densitysum_threshold(d: Doc, density: npt.ArrayLike, dsum: npt.ArrayLike) -> tuple[int, float]: ...
def densitysum_extract(d: Doc, density: npt.ArrayLike, dsum: npt.ArrayLike) -> npt.NDArray[np.uint8]: ...
def smooth_siblings(d: Doc, density: npt.ArrayLike) -> npt.NDArray[np.float64]: ...
def threshold_extract(d: Doc, density: npt.ArrayLike) -> npt.NDArray[np.uint8]: ...

# ---------------------------------------------------------------- _lcs.pxi
def lcs_length(a: npt.NDArray[np.int32], b: npt.NDArray[np.int32]) -> int: ...
