"""How ntt_cy.bench.timing samples a call: loops, untimed warm-up calls, first calls."""
import time

from ntt_cy.bench import timing


def test_measure_loops_fast_calls_and_keeps_first_result():
    calls = []
    result, measured = timing.measure(lambda: calls.append(1) or len(calls), repeat=3,
                                      budget=0.05)
    assert result == 1
    assert (measured.calls_per_sample > 1 and measured.median_s > 0
            and 1 <= len(measured.samples_s) <= 3)


def test_fast_calls_get_untimed_calls_before_each_sample(monkeypatch):
    # samples of different libraries alternate; the untimed calls put this library's
    # data back in cache and its threads back to speed after a competitor's call
    # (timing.WARM_UP_BELOW_S, timing.WARM_UP_S)
    calls = []
    monkeypatch.setattr(timing, "WARM_UP_S", 0.0)   # one untimed call
    sampler = timing.Sampler(lambda: calls.append(time.perf_counter()), budget=10.0)
    before = len(calls)
    sampler.sample()
    assert len(calls) - before == sampler.number + 1 and len(sampler.samples) == 1
    monkeypatch.setattr(timing, "WARM_UP_S", 0.02)   # untimed calls for 20 ms
    before = len(calls)
    t_before = time.perf_counter()
    sampler.sample()
    untimed = calls[before:len(calls) - sampler.number]
    first_timed = calls[len(calls) - sampler.number]
    # the timed calls start once 20 ms have passed since the warm-up began (measured
    # from before the call: a pause of this process before the first untimed call,
    # as on a loaded CI host, shortens the untimed calls' own span, not this)
    assert len(untimed) > 1 and first_timed - t_before >= 0.02
    monkeypatch.setattr(timing, "WARM_UP_BELOW_S", 0.0)   # as for calls slower than it
    sampler = timing.Sampler(lambda: calls.append(time.perf_counter()), budget=10.0)
    before = len(calls)
    sampler.sample()
    assert len(calls) - before == sampler.number


def test_a_slow_first_call_does_not_set_the_loop():
    # the first call prepares (plans, routes, the cost model's measurements) and may
    # take milliseconds where the calls after it take microseconds: the loop size and
    # the untimed calls come from a call after it, or every sample would be one call
    state = {"calls": 0}

    def prepares_once():
        state["calls"] += 1
        if state["calls"] == 1:
            time.sleep(0.05)   # past WARM_UP_BELOW_S, within a quarter of the budget

    sampler = timing.Sampler(prepares_once, budget=1.0)
    assert sampler.number > 10 and sampler.warm_up
    # a first call past a quarter of the budget (but within it) is not repeated: the
    # samples that follow are calls after it
    state["calls"] = 0
    sampler = timing.Sampler(prepares_once, budget=0.1)
    assert state["calls"] == 1 and sampler.number == 1


def test_a_first_call_slower_than_the_budget_is_never_the_sample():
    # a one-time set-up of 0.3 s before calls of microseconds, with a budget of 0.1 s
    # (--quick's): the cold call is warm-up, the samples come from the calls after it
    state = {"calls": 0}

    def cold_then_fast():
        state["calls"] += 1
        if state["calls"] == 1:
            time.sleep(0.3)
        return state["calls"]

    result, measured = timing.measure(cold_then_fast, repeat=3, budget=0.1)
    assert result == 1   # the first call's answer is the one checked
    assert measured.median_s < 0.01 and max(measured.samples_s) < 0.01
    assert len(measured.samples_s) == 3 and measured.calls_per_sample > 1


def test_a_call_always_slower_than_the_budget_gets_one_warm_sample():
    state = {"calls": 0}

    def slow():
        state["calls"] += 1
        time.sleep(0.3 if state["calls"] == 1 else 0.15)

    result, measured = timing.measure(slow, repeat=3, budget=0.1)
    assert state["calls"] == 2   # the untimed first call and the one sample
    assert measured.samples_s == [measured.median_s] and 0.15 <= measured.median_s < 0.3
