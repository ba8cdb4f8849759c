"""The referee: pure and deterministic, no I/O and no audio.

case = load_case(files)          # files: {name: bytes} of a case folder; raises CaseError
game = Game(case)
reply = game.start()             # the opening (t:1)
message = game.preview(text)     # what a message would be taken as, without applying it
reply = game.handle(text)        # apply one message; every reply ends with the LEDGER
game.state                       # a GameState snapshot for the screen
"""
