"""ET606 reads a URL's host as an IP address only where `ipaddress` would: the quick test
for names must never turn an address into a name or a name into an address."""

from __future__ import annotations

import ipaddress

from hypothesis import given, settings
from hypothesis import strategies as st

from entrykit.rules.content import ip_address_of, url_problem


def _by_ipaddress(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(int(host) if host.isdigit() else host)
    except ValueError:
        return None


HOSTS = st.one_of(
    st.text(alphabet="0123456789.:abcdefxABCDEF%-_\u0661\u0662\uff11", max_size=24),
    st.ip_addresses().map(str),
    st.integers(0, 2**40).map(str),
    st.from_regex(r"[a-z0-9-]{1,12}(\.[a-z0-9-]{1,12}){0,3}", fullmatch=True),
)


@settings(max_examples=500, deadline=None)
@given(HOSTS)
def test_the_same_address_as_ipaddress_reads(host: str) -> None:
    assert ip_address_of(host) == _by_ipaddress(host)


def test_addresses_and_names_in_urls() -> None:
    assert url_problem("http://127.0.0.1:8080/notes") == "points at the non-public address `127.0.0.1`"
    assert url_problem("http://[::1]/x") == "points at the non-public address `::1`"
    assert url_problem("http://2130706433/") == "points at the non-public address `2130706433`"
    assert url_problem("https://8.8.8.8/") is None
    assert url_problem("http://\u0661\u0662\u0663/") == "points at the non-public address `\u0661\u0662\u0663`"  # digits of any script
    assert url_problem("https://docs.python.org/3/") is None
    assert url_problem("http://intranet/wiki") == "points at the private host `intranet`"
