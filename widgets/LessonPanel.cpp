// SPDX-License-Identifier: GPL-3.0-or-later
#include "LessonPanel.h"

#include <QEvent>
#include <QListWidget>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace specdec::gui {

LessonPanel::LessonPanel(QWidget *parent)
    : QWidget(parent)
    , m_list(new QListWidget(this))
    , m_text(new QTextBrowser(this))
    , m_apply(new QPushButton(this))
{
    m_list->setWordWrap(true);
    m_list->setMaximumHeight(m_list->fontMetrics().height() * 9);
    m_text->setMinimumHeight(m_text->fontMetrics().height() * 10);
    m_text->setOpenLinks(false);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_list);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_apply);
    connect(m_list, &QListWidget::currentRowChanged, this, &LessonPanel::showLesson);
    connect(m_list, &QListWidget::itemActivated, this, [this] { emit applyRequested(currentLesson()); });
    connect(m_apply, &QPushButton::clicked, this, [this] {
        if (currentLesson() >= 0)
            emit applyRequested(currentLesson());
    });
    retranslate();
}

void LessonPanel::setLessons(const QList<Entry> &lessons)
{
    const int current = std::max(0, currentLesson());
    m_lessons = lessons;
    m_list->clear();
    for (const Entry &e : lessons)
        m_list->addItem(e.title);
    m_list->setCurrentRow(std::min(current, static_cast<int>(lessons.size()) - 1));
}

int LessonPanel::currentLesson() const
{
    return m_list->currentRow();
}

void LessonPanel::setCurrentLesson(int index)
{
    m_list->setCurrentRow(index);
}

QString LessonPanel::explanationText() const
{
    return m_text->toPlainText();
}

void LessonPanel::showLesson(int index)
{
    m_text->setHtml(index >= 0 && index < m_lessons.size() ? m_lessons[index].html : QString());
}

void LessonPanel::retranslate()
{
    m_apply->setText(tr("Run this lesson"));
}

void LessonPanel::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

} // namespace specdec::gui
