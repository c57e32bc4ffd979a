from django.db import models


class Entry(models.Model):
    """One submission of seed 003's form."""

    text = models.CharField(max_length=200)
    created = models.DateTimeField(auto_now_add=True)
