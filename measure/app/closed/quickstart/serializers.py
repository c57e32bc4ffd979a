from django.contrib.auth.models import User
from rest_framework import serializers


class UserSerializer(serializers.HyperlinkedModelSerializer):
    """The REST framework quickstart's user serializer (seed 001)."""

    class Meta:
        model = User
        fields = ["url", "username", "email", "groups"]
