"""attnkit: autograded exercises and quizzes that teach transformer self-attention with numpy."""

__version__ = "0.1.0"
