"""Sources: a URL on a host that policy.yaml declares a mirror or content farm is refused, located at the url line."""

from specdb.load.dataset import load_specs
from specdb.resources import bundled_specs

SOURCE = "source/test-datasheet.yaml"


def _exclude(specs, *domains):
    listed = "".join(f"  - {domain}\n" for domain in domains)
    (specs / "policy.yaml").write_text(f"schema: 2\nexcluded_source_domains:\n{listed}")


def _cite(specs, url):
    path = specs / SOURCE
    path.write_text(path.read_text().replace("url: https://example.com/datasheet", f"url: {url}"))


def test_a_source_on_an_excluded_host_or_its_subdomain_is_refused_at_its_url(cli, specs):
    _exclude(specs, "mirror.example")
    _cite(specs, "https://copies.Mirror.example/blog/post")
    result = cli("validate")
    assert result.exit_code == 1
    # url is line 6 of the test source; the value starts at column 6
    assert f"{specs / SOURCE}:6:6: url: copies.mirror.example is a mirror or content farm" in result.stdout.replace(str(specs.resolve()), str(specs))


def test_a_host_that_only_ends_with_the_same_letters_is_accepted(cli, specs):
    _exclude(specs, "mirror.example")
    _cite(specs, "https://notmirror.example/blog/post")
    assert cli("validate").exit_code == 0


def test_a_malformed_domain_in_the_policy_is_reported(cli, specs):
    _exclude(specs, "https://mirror.example/")
    result = cli("validate")
    assert result.exit_code == 1
    assert "policy.yaml:3:5: excluded_source_domains[0]: 'https://mirror.example/' is not a domain name" in result.stdout


def test_the_bundled_policy_keeps_the_known_mirrors_and_content_farms_out():
    dataset = load_specs(bundled_specs())
    assert dataset.ok, dataset.problems
    # The hosts the dataset once cited in place of the pages they copy.
    known = {"vuink.com", "open-lab.net", "dailyzsocialmedianews.com", "akex.ca", "sgpjbg.com", "causewaynow.com",
             "asmedoc.com", "hyperlinked.wiki", "csdn.net", "pudn.club", "ainews247.org", "eminentnews.com",
             "quantum-computing.news"}
    assert known <= set(dataset.policies.excluded_source_domains)
