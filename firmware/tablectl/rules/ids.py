"""Ids (layout spots, hand classes) held as one string: a read-only sequence costing one str of heap."""


class SpotIds:
    """len(ids), ids[i] (a new str each time: ids serve lamp wiring, logs and tests, never the hot path),
    ids[i:j] (a tuple), iteration, `in`, ids.index(id) (ValueError if absent). Made from 'a b c', or
    from ' a b c ', which is kept as it is: a module's padded constant then costs no copy. A tuple of
    the same ids costs ~70 bytes an id on the unix port."""

    def __init__(self, words):
        if isinstance(words, str) and words[:1] != " " and words[-1:] != " ":
            words = " " + words + " "  # padded: every id is found as " id "
        if not isinstance(words, str) or len(words) < 3 or "  " in words or words[0] != " " or words[-1] != " ":
            raise ValueError("spot ids are separated by single spaces")
        self._text = words

    def __len__(self):
        return self._text.count(" ") - 1

    def __getitem__(self, i):  # iteration and `in` use it too, until IndexError
        if not isinstance(i, int):
            return tuple(self)[i]  # a slice: rare (a controller's class list at start-up)
        t = self._text
        n = t.count(" ") - 1
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("spot index out of range")
        at = 0
        for _ in range(i):
            at = t.find(" ", at + 1)
        return t[at + 1:t.find(" ", at + 1)]

    def index(self, spot_id):
        at = -1
        if isinstance(spot_id, str) and spot_id and " " not in spot_id:
            at = self._text.find(" " + spot_id + " ")
        if at < 0:
            raise ValueError("no spot %r" % (spot_id,))
        return self._text.count(" ", 0, at)  # the spaces before an id = its position
