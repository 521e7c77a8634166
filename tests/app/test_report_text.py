"""report.md's Environment table names every remote host and each host's drive ."""
from __future__ import annotations

from app.report.markdown import environment

from conftest import info_of


def test_a_run_on_two_fio_servers_names_both_hosts_and_both_drives():
    hosts = [{"host": "10.0.0.5", "port": 8765}, {"host": "10.0.0.6", "port": 8766}]
    record = {"target": {"folder": "/srv/ssd", "remote": {**hosts[0], "hosts": hosts}},
              "drive": {"model": None, "hosts": [{"model": "Samsung SSD 970 EVO 1TB", "remote": "10.0.0.5"},
                                                 {"model": None, "remote": "10.0.0.6"}]}}
    text = "\n".join(environment(info_of(record)))
    assert "| Target folder | /srv/ssd on 10.0.0.5:8765, 10.0.0.6:8766 (fio --server) |" in text
    assert "Samsung SSD 970 EVO 1TB (10.0.0.5); unknown model (10.0.0.6)" in text


def test_a_local_and_a_one_host_run_read_as_before():
    local = "\n".join(environment(info_of({"target": {"folder": "/home/me/t"}, "drive": {"model": "X"}})))
    assert "| Target folder | …/t |" in local and "| Drive model | X |" in local
    one = {"target": {"folder": "/srv", "remote": {"host": "h", "port": 8765}}, "drive": {}}
    assert "| Target folder | /srv on h:8765 (fio --server) |" in "\n".join(environment(info_of(one)))
