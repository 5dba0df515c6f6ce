"""A linked table's credentials are write-only: the journal (the one exported to labs), config(), status(),
configure()'s answer and every other report show the link with `***` for its password, and the journal
says when the password changed. Linking a table that holds its own pool takes a confirmation code and
journals the amount set aside."""
# mp-heap: 388K
from harness.service_table import done, new_app  # noqa: F401 (done: the scratch folders, after each test)
from tablectl import service
from tablectl.service.ramclear import clear_code
from mptest import raises

SECRET = "S3cretPassw0rd"
LINK = "mqtt://t01:%s@127.0.0.1:1883/pit1" % SECRET


def teardown_function(function):
    done()


def link_table(url=LINK):
    app = new_app("caribbean_stud")
    pool = app.controller.pool
    held = (pool.pool, pool.reserve)
    code = clear_code(app, "link")
    service.configure(link=url, confirm=code)
    app.controller.task = "this test"  # stands for the connection task: no network here
    return app, held


def everything_shown(app, *more):
    """Every report's text and data, the journal's records and its export: a list of texts (one joined
    text would want a free block longer than any of them)."""
    out = []
    app.journal.export(1, out.append, "t01")
    for rep in (service.status(), service.meters(), service.history(), service.journal(50), service.config(),
                service.config(True)):
        out.append(repr(rep))
        out.append(repr(rep.data))
    out.append(repr(app.journal.records(50)))
    return out + [repr(m) for m in more]


def nowhere(secret, texts):
    return [t for t in texts if secret in t] == []


def test_the_link_password_is_never_journalled_nor_shown():
    app, _ = link_table()
    assert app.config["link"] == LINK  # the table keeps it (it logs in with it)
    answer = service.configure(link_down_ms=4000)
    assert nowhere(SECRET, everything_shown(app, answer))
    assert "mqtt://t01:***@127.0.0.1:1883/pit1" in repr(service.config())
    entries = [r for r in app.journal.records(50) if r[2] == "config" and r[5].startswith("link ")]
    assert entries == [entries[0]] and entries[0][5].startswith("link ''->'mqtt://t01:***@127.0.0.1")


def test_a_new_password_is_journalled_as_changed_and_never_written_out():
    app, _ = link_table()
    other = LINK.replace(SECRET, "An0therOne")
    answer = service.configure(link=other)
    assert "An0therOne" not in repr(answer) and SECRET not in repr(answer)
    last = [r for r in app.journal.records(50) if r[2] == "config"][-1]
    assert last[5] == "link password changed", last  # (a journal text is short: the news comes first)
    texts = everything_shown(app)
    assert nowhere("An0therOne", texts) and nowhere(SECRET, texts)


def test_linking_a_table_that_holds_its_own_pool_takes_a_code_and_journals_what_is_set_aside():
    app = new_app("caribbean_stud")
    pool = app.controller.pool
    assert pool.pool + pool.reserve > 0  # the seed
    why = raises(ValueError, service.configure, link=LINK)
    assert "aside" in why and "confirm=" in why and app.config["link"] == ""
    assert SECRET not in why
    wrong = "%06d" % ((int(clear_code(app, "link")) + 1) % 1000000)
    assert "aside" in raises(ValueError, service.configure, link=LINK, confirm=wrong)
    assert [r for r in app.journal.records(50) if r[2] == "pool_aside"] == []
    done()
    app, held = link_table()
    aside = [r for r in app.journal.records(50) if r[2] == "pool_aside"]
    assert [(r[3], r[4]) for r in aside] == [held] and held[0] > 0
    assert "pool_aside" in repr(service.journal(50))
