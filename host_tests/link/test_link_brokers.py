"""A link naming several brokers (a cluster's nodes): every address checked, a bad one refused in one line
with nothing changed, the password never shown, and the connection task going to the next broker after
one fails. No broker here: the addresses refuse connections."""
# mp-heap: 356K
from harness.service_table import done, new_app  # noqa: F401 (done: the scratch folders, after each test)
from tablectl import link as linkmod
from tablectl import linkaddr
from tablectl import service
from tablectl.service.ramclear import clear_code
from mptest import raises

SECRET = "S3cretPassw0rd"
HEAD = "mqtt://t01:%s@" % SECRET
NODES = "127.0.0.1:1,127.0.0.1:2,127.0.0.1:3"  # nothing listens: every connection is refused at once


def teardown_function(function):
    done()


def test_every_broker_of_a_link_is_parsed_in_order():
    tls, table, password, brokers, link = linkaddr.link_parts(HEAD + NODES + "/pit1")
    assert (tls, table, password, link) == (False, "t01", SECRET, "pit1")
    assert brokers == [("127.0.0.1", 1), ("127.0.0.1", 2), ("127.0.0.1", 3)]
    assert linkaddr.link_parts("mqtts://t01:p@h:1883/pit1")[3] == [("h", 1883)]  # one broker, as before
    five = ",".join("10.0.0.%d:1883" % i for i in range(1, 6))
    assert len(linkaddr.link_parts(HEAD + five + "/pit1")[3]) == linkaddr.BROKERS_MAX


BAD = (
    ("127.0.0.1:1,/pit1", "broker ''"),                # a trailing comma: an empty address
    (",127.0.0.1:1/pit1", "broker ''"),
    ("127.0.0.1:1,,127.0.0.1:2/pit1", "broker ''"),
    ("127.0.0.1:1,127.0.0.1/pit1", "'127.0.0.1' is not HOST:PORT"),
    ("127.0.0.1:1,:1883/pit1", "':1883' is not"),
    ("127.0.0.1:1,h:0/pit1", "'h:0' is not"),
    ("127.0.0.1:1,h:65536/pit1", "'h:65536' is not"),
    ("127.0.0.1:1,h:18x3/pit1", "'h:18x3' is not"),
    ("127.0.0.1:1,h:-1/pit1", "'h:-1' is not"),
    ("127.0.0.1:1,127.0.0.1:1/pit1", "named twice"),
    (",".join("h:%d" % p for p in range(1, 7)) + "/pit1", "6 brokers, at most 5"),
    ("127.0.0.1:1,127.0.0.1:2", "HOST:PORT/LINK"),    # no link id
)


def test_each_bad_broker_list_is_refused_naming_the_bad_address():
    for where, why in BAD:
        msg = raises(ValueError, linkaddr.link_parts, HEAD + where)
        assert why in msg and msg.startswith("link: ") and "\n" not in msg, (where, msg)
        assert SECRET not in msg


def test_a_bad_broker_list_changes_nothing_and_a_good_one_is_journalled_without_its_password():
    app = new_app("caribbean_stud")
    before = (dict(app.config.values), len(app.journal.records(100)))
    for where, why in BAD:
        msg = raises(ValueError, service.configure, link=HEAD + where, confirm=clear_code(app, "link"))
        assert why in msg and SECRET not in msg, msg
        assert (dict(app.config.values), len(app.journal.records(100))) == before
    service.configure(link=HEAD + NODES + "/pit1", confirm=clear_code(app, "link"))
    app.controller.task = "this test"  # stands for the connection task: none runs here
    st = service.status()
    assert st.data["details"]["link"] == "pit1/t01 as t01 on 127.0.0.1:1 (1 of 3)", st.data
    assert "mqtt://t01:***@" + NODES + "/pit1" in repr(service.config())
    texts = [repr(r) for r in app.journal.records(100)] + [repr(st), repr(service.config(True))]
    assert [t for t in texts if SECRET in t] == []


def test_the_connection_task_goes_to_the_next_broker_after_each_failure_and_back_to_the_first():
    import asyncio
    app = new_app("caribbean_stud")
    service.configure(link=HEAD + NODES + "/pit1", confirm=clear_code(app, "link"))
    ctl = app.controller
    tried = []
    retry, linkmod.RETRY_MS = linkmod.RETRY_MS, 0  # the task and this one take turns: each broker is seen
    try:
        async def watch():
            task = asyncio.create_task(ctl.run())
            for _ in range(20000):  # a bound: a task that stays on one broker fails the test, not hangs it
                if not tried or tried[-1] != ctl.turn:
                    tried.append(ctl.turn)
                if len(tried) == 5:
                    break
                await asyncio.sleep(0)
            app.controller = None  # the task ends: this controller is no longer the table's
            await task
        asyncio.run(watch())
    finally:
        linkmod.RETRY_MS = retry
    assert tried == [0, 1, 2, 0, 1], tried
    assert ctl.error and not ctl.up()  # why the link is down, for status()
