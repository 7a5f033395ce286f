"""The exercises' parameter names (grader.signatures.parameters) read once per module: every name asked of a module
after the first comes from what its first question worked out, and says the same as reading the module again."""
from grader import signatures


def test_a_module_is_read_once_for_all_its_names(monkeypatch):
    signatures.parameters.cache_clear()
    signatures._of_module_once.cache_clear()
    read = []
    real = signatures.of_module

    def counted(module):
        read.append(module)
        return real(module)

    monkeypatch.setattr(signatures, "of_module", counted)
    names = [name for name in real("attention")]
    assert len(names) > 1
    found = {name: signatures.parameters("attention", name) for name in names}
    assert read == ["attention"]
    assert found == real("attention") and all(found.values())
    signatures.parameters.cache_clear()
    signatures._of_module_once.cache_clear()
