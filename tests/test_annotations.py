"""The checker's side tables travel in one Annotations object (issue 14, item 6).

The compiler and the tools read `model.types`, `model.refs`, `model.frames` and
`model.templates`; these are the Annotations' own tables, filled by the checker
through it, so there is one place that says what the checker found per node.
"""

from landlord_dsl import load_text
from landlord_dsl.checking.model import Annotations
from landlord_dsl.language import ast

SOURCE = """
edition "annotated" { players 2 to 2 }
kind plain { }
board { space start "Start" : plain }
account bank "Bank" unlimited
var pot = 0
rule tax {
    on turn {
        let owed = pot + 5
        choose by player "Pay {owed}?" {
            option yes { pay owed from player to bank }
            option no { }
        }
    }
}
"""


def _handler(model):
    return model.rules[0].handlers[0]


def test_the_models_tables_are_the_annotations_tables():
    model = load_text(SOURCE).model
    assert isinstance(model.annotations, Annotations)
    assert model.types is model.annotations.types and model.refs is model.annotations.refs
    assert model.frames is model.annotations.frames and model.templates is model.annotations.templates


def test_annotations_give_each_node_its_type_reference_frame_and_template():
    model = load_text(SOURCE).model
    notes = model.annotations
    let, choose = _handler(model).body
    total = let.value
    assert isinstance(total, ast.Binary) and notes.type_of(total) == "int"
    assert notes.ref(total.left) == ("game_var", "pot")
    assert notes.ref(let) == ("local", 0)
    assert model.frames[id(_handler(model))] == 1  # one local, `owed`
    prompt = model.templates[id(choose)]
    assert prompt[0] == "Pay " and notes.ref(prompt[1]) == ("local", 0) and prompt[2] == "?"
    assert notes.type_of(ast.IntLit(5)) == "any"  # a node the checker never saw


def test_forget_ref_drops_and_returns_what_a_node_referred_to():
    notes = Annotations()
    node = ast.Name("x")
    notes.set_ref(node, ("local", 3))
    assert notes.forget_ref(node) == ("local", 3) and notes.ref(node) is None and notes.forget_ref(node) is None
