"""The server's pass after a commit, against a real mosquitto: the sign is told of the committed pool before
the broker acknowledges the batch's answers (a stalled broker holds neither the sign nor the next batch),
and the answers still reach their tables once the broker goes on."""
import asyncio
import json

from jackpot import leanmqtt, protocol
from jackpot.rig import GAME, LINK
from jackpot.server import JackpotServer

TABLES = ["t%02d" % i for i in range(1, 31)]


class Msg:
    def __init__(self, topic, body):
        self.topic = leanmqtt._Topic(topic)
        self.payload = json.dumps(body).encode()


def contributions(ep=7):
    return [Msg(protocol.table_topic(LINK, t, "contrib"),
                {"ep": ep, "seq": 1, "round": 1, "bets": [[1, 2500], [3, 2500]], "locked": [1, 3]}) for t in TABLES]


def test_a_committed_batch_reaches_the_sign_before_its_answers_are_acknowledged_and_the_answers_arrive(make_link):
    link = make_link(TABLES, start=False)
    link.broker.start()
    srv = JackpotServer(link.folder / "ledger.db", {LINK: GAME}, link.tables, [("127.0.0.1", link.broker.port)],
                        link.broker.servers[0], link.password(link.broker.servers[0]))
    told = []
    srv.listeners.append(lambda: told.append(srv.ledger.links[LINK].ver))
    answers = {}

    async def table(tid, subscribed):
        async with leanmqtt.client(("127.0.0.1", link.broker.port), tid, link.password(tid), "tablectl-" + tid,
                                   clean=True) as c:
            await protocol.subscribe(c, protocol.table_topic(LINK, tid, "ack"), 1)
            subscribed.set()
            messages = c.messages
            while tid not in answers:
                answers[tid] = json.loads((await asyncio.wait_for(messages.__anext__(), 60)).payload)

    async def scenario():
        subs = [asyncio.Event() for _ in TABLES]
        tables = [asyncio.ensure_future(table(t, s)) for t, s in zip(TABLES, subs)]
        await asyncio.wait_for(asyncio.gather(*(s.wait() for s in subs)), 60)
        async with srv._client() as client:
            link.broker.pause()  # no PUBACK comes now
            try:
                # bounded against a server that would hang; aiomqtt's own timeout (10 s) raises first
                await asyncio.wait_for(srv.apply(client, contributions()), 60)
                assert told == [len(TABLES)], "the sign was not told of the committed batch"
            finally:
                link.broker.pause(False)
            await asyncio.wait_for(asyncio.gather(*tables), 60)

    asyncio.run(scenario())
    # every table's answer, each its own contribution's, with the pool the ledger committed
    assert sorted(answers) == TABLES
    assert all(a["ok"] == "contrib" and a["seq"] == 1 and a["cents"] == 1000 for a in answers.values())
    assert sorted(a["ver"] for a in answers.values()) == list(range(1, len(TABLES) + 1))
    assert srv.stats["messages"] == len(TABLES) and srv.stats["batches"] == 1
