"""The steps of ``attnkit grade``, one module each; :mod:`attnkit.grade.pipeline` lists them in order."""
