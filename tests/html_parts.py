"""Test helper: the start tags (with their attributes) and the text of an HTML fragment."""

from __future__ import annotations

from html.parser import HTMLParser


class HtmlParts(HTMLParser):
    """``HtmlParts(fragment).tags``: (tag, attributes) of every start tag in order;
    ``.text``: the text pieces."""

    def __init__(self, fragment: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self.feed(fragment)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)
