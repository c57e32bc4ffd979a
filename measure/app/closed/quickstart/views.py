from django.contrib.auth.models import User
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt
from rest_framework import viewsets

from .models import Entry
from .serializers import UserSerializer

PAGE_ENTRIES = 20


class UserViewSet(viewsets.ReadOnlyModelViewSet):
    """Seed 001's `/users/`: the quickstart's user list."""

    queryset = User.objects.all().order_by("-date_joined")
    serializer_class = UserSerializer


# Seed 003's client posts the form without a CSRF token; the harness's client does the same.
@csrf_exempt
def page(request):
    """Seed 003's page: a form and the latest 20 entries; a POST stores one and redirects back."""
    if request.method == "POST":
        Entry.objects.create(text=request.POST.get("text", "")[:200])
        return redirect("page")
    entries = Entry.objects.order_by("-id")[:PAGE_ENTRIES]
    return render(request, "quickstart/page.html", {"entries": entries})
