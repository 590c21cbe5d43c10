"""What the two TypeScript readers share: the text with comments blanked, and its brackets checked to close in order."""

from __future__ import annotations

from specdb.audit.fields import UnreadableTable
from specdb.textfile import line_and_column

_CLOSING = {"}": "{", "]": "[", ")": "("}


def code_of(path: str, text: str) -> str:
    """The text with comments blanked (same length, so offsets still point into the file), after checking that every
    bracket outside strings and comments closes in order; an unclosed or stray one is an error at its place."""
    chars = list(text)
    stack: list[tuple[str, int]] = []
    index, length = 0, len(text)
    while index < length:
        char = text[index]
        if text.startswith("//", index):
            end = text.find("\n", index)
            end = length if end < 0 else end
            chars[index:end] = " " * (end - index)
            index = end
            continue
        if text.startswith("/*", index):
            end = text.find("*/", index + 2)
            if end < 0:
                raise UnreadableTable(path, "comment never closed", *line_and_column(text, index))
            chars[index:end + 2] = [c if c == "\n" else " " for c in text[index:end + 2]]
            index = end + 2
            continue
        if char in "'\"`":
            end = index + 1
            while end < length and text[end] != char:
                if text[end] == "\\":
                    end += 1
                elif text[end] == "\n" and char != "`":
                    break
                end += 1
            if end >= length or text[end] != char:
                raise UnreadableTable(path, "string never closed", *line_and_column(text, index))
            index = end + 1
            continue
        if char in "{[(":
            stack.append((char, index))
        elif char in _CLOSING:
            if not stack or stack[-1][0] != _CLOSING[char]:
                raise UnreadableTable(path, f"'{char}' closes nothing open", *line_and_column(text, index))
            stack.pop()
        index += 1
    if stack:
        raise UnreadableTable(path, f"'{stack[-1][0]}' never closed", *line_and_column(text, stack[-1][1]))
    return "".join(chars)
